// The one reader of ISO BMFF (MP4/MOV) box headers: the probe hops over the top-level boxes with
// it (16 bytes read per box) and walks the moov's metadata with it. mp4box.js parses the moov
// itself; it cannot hop over a multi-gigabyte mdat without being handed the bytes.

export interface Box {
  /** Four characters, '©' included (byte 0xA9). */
  type: string;
  start: number;
  /** Where the payload starts (after size, type and a 64-bit size). */
  body: number;
  end: number;
}

/** A box type as four characters, '©' included (byte 0xA9). */
export const fourcc = (bytes: Uint8Array, at: number): string =>
  String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);

/**
 * The box whose header starts at `at` in `bytes` (positions are indices into `bytes`), or
 * undefined when its header is not all there or it would not end by `limit` (its container's
 * end, which may lie past the bytes at hand). A size of 0 runs to `limit`.
 */
export function boxAt(bytes: Uint8Array, at: number, limit: number): Box | undefined {
  const have = Math.min(bytes.byteLength, limit);
  if (at + 8 > have) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let size = view.getUint32(at);
  let body = at + 8;
  if (size === 1) {
    if (at + 16 > have) return undefined;
    size = Number(view.getBigUint64(at + 8));
    body = at + 16;
  } else if (size === 0) {
    size = limit - at;
  }
  if (size < body - at || at + size > limit) return undefined;
  return { type: fourcc(bytes, at + 4), start: at, body, end: at + size };
}

/** The boxes one after another from `from` to `to`, up to the first that does not fit. */
export function* children(bytes: Uint8Array, from: number, to: number): Generator<Box> {
  for (let box = boxAt(bytes, from, to); box; box = boxAt(bytes, box.end, to)) yield box;
}
