// Creation dates an MP4/MOV keeps in its metadata rather than in mvhd. Phones write the capture
// moment as the QuickTime key com.apple.quicktime.creationdate (iPhone: moov/meta, with its UTC
// offset); when a video is trimmed or exported, mvhd gets the export time and only this key still
// says when it was filmed. udta ©day (QuickTime text or iTunes-style ilst) is read as a fallback.
import { children, fourcc, type Box } from './mp4-boxes.ts';

const APPLE_CREATION_KEY = 'com.apple.quicktime.creationdate';
const utf8 = new TextDecoder();

const viewOf = (bytes: Uint8Array): DataView =>
  new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

const find = (bytes: Uint8Array, box: Box | undefined, type: string): Box | undefined =>
  box ? [...children(bytes, box.body, box.end)].find((b) => b.type === type) : undefined;

/** QuickTime's meta has no version/flags; the ISO (iTunes) one does. Its first child is hdlr. */
function metaChildren(bytes: Uint8Array, meta: Box): Box[] {
  const bare = meta.body + 8 <= meta.end && fourcc(bytes, meta.body + 4) === 'hdlr';
  return [...children(bytes, bare ? meta.body : meta.body + 4, meta.end)];
}

/** The text of an ilst item's data box (type 1 is UTF-8). */
function dataText(bytes: Uint8Array, item: Box): string | undefined {
  const data = find(bytes, item, 'data');
  if (!data || data.body + 8 > data.end) return undefined;
  return utf8.decode(bytes.subarray(data.body + 8, data.end));
}

/** Values of a meta box by key: mdta keys (by index into `keys`) and iTunes four-character codes. */
function metaValues(bytes: Uint8Array, meta: Box): Map<string, string> {
  const values = new Map<string, string>();
  const boxes = metaChildren(bytes, meta);
  const keys: string[] = [];
  const keysBox = boxes.find((b) => b.type === 'keys');
  if (keysBox) {
    const view = viewOf(bytes);
    // version/flags (4), entry_count (4), then entries: size (4), namespace (4), name.
    for (let at = keysBox.body + 8; at + 8 <= keysBox.end;) {
      const size = view.getUint32(at);
      if (size < 8 || at + size > keysBox.end) break;
      keys.push(utf8.decode(bytes.subarray(at + 8, at + size)));
      at += size;
    }
  }
  const ilst = boxes.find((b) => b.type === 'ilst');
  for (const item of ilst ? children(bytes, ilst.body, ilst.end) : []) {
    const text = dataText(bytes, item);
    if (text === undefined) continue;
    // An mdta item's type is the 1-based index of its key.
    const index = viewOf(bytes).getUint32(item.body - 4);
    const key = keysBox && index >= 1 && index <= keys.length ? keys[index - 1]! : item.type;
    values.set(key, text);
  }
  return values;
}

/** QuickTime udta text: entries of length (2), language (2), text. */
function udtaText(bytes: Uint8Array, box: Box): string | undefined {
  if (box.body + 8 <= box.end && fourcc(bytes, box.body + 4) === 'data')
    return dataText(bytes, box);
  if (box.body + 4 > box.end) return undefined;
  const length = (bytes[box.body]! << 8) | bytes[box.body + 1]!;
  return utf8.decode(bytes.subarray(box.body + 4, Math.min(box.end, box.body + 4 + length)));
}

/**
 * A date with a time of day as container metadata gives it: "2023-05-06T07:08:09+0900",
 * "...+09:00", "...Z", mediainfo.js's "2023-05-06 07:08:09 UTC" or "UTC 2023-05-06 07:08:09", or
 * without a zone (the camera's local time). A year or a date alone is not a creation moment, nor
 * is 1904 (the ISO BMFF epoch, an unset field).
 */
export function parseMetadataDate(value: string | undefined): Date | undefined {
  const text = value ?? '';
  const match =
    /(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?/.exec(
      text,
    );
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s = '00', frac = '', zone] = match;
  const offset =
    zone && zone !== 'Z'
      ? `${zone.slice(0, 3)}:${zone.slice(-2)}`
      : (zone ?? (/UTC/.test(text) ? 'Z' : ''));
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${frac}${offset}`);
  return Number.isNaN(date.getTime()) || date.getUTCFullYear() <= 1904 ? undefined : date;
}

export interface MetadataDates {
  /** com.apple.quicktime.creationdate */
  appleCreationDate: Date | undefined;
  /** udta ©day */
  day: Date | undefined;
}

const NONE: MetadataDates = { appleCreationDate: undefined, day: undefined };

/**
 * Reads the metadata dates from a moov box (the bytes start at the moov header). Metadata is
 * optional: a malformed box leaves the date to mvhd or the file's time, never fails the probe.
 */
export function metadataDates(moovBytes: Uint8Array): MetadataDates {
  try {
    return readMetadataDates(moovBytes);
  } catch {
    return NONE;
  }
}

function readMetadataDates(moovBytes: Uint8Array): MetadataDates {
  const moov = [...children(moovBytes, 0, moovBytes.byteLength)].find((b) => b.type === 'moov');
  const udta = find(moovBytes, moov, 'udta');
  const metas = [find(moovBytes, moov, 'meta'), find(moovBytes, udta, 'meta')].filter(
    (m): m is Box => m !== undefined,
  );
  const values = new Map<string, string>();
  for (const meta of metas)
    for (const [key, value] of metaValues(moovBytes, meta))
      if (!values.has(key)) values.set(key, value);
  const dayBox = find(moovBytes, udta, '\u00a9day');
  return {
    appleCreationDate: parseMetadataDate(values.get(APPLE_CREATION_KEY)),
    day: parseMetadataDate(values.get('\u00a9day') ?? (dayBox && udtaText(moovBytes, dayBox))),
  };
}
