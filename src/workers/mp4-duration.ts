// Duration and creation date of an MP4/MOV from its moov box, reading only box headers and the moov.
// The moov of a camera file often sits after a multi-gigabyte mdat: we hop from header to header
// instead of streaming the file, then let mp4box.js parse the index.
import { createFile, MP4BoxBuffer, type Movie } from 'mp4box';
import type { ByteSource } from './byte-source.ts';
import { boxAt } from './mp4-boxes.ts';
import { metadataDates } from './quicktime-dates.ts';

export interface Mp4Info {
  durationSeconds: number;
  /**
   * When it was filmed: the QuickTime creation date key, else mvhd creation_time (zero means
   * "unset" in ISO BMFF), else udta ©day; undefined when none is there.
   */
  createdAt: Date | undefined;
}

const HEADER_BYTES = 16;
/** A moov larger than this is not a plausible index: refuse rather than read a huge range. */
const MAX_MOOV_BYTES = 256 * 1024 * 1024;
const MAX_TOP_LEVEL_BOXES = 4096;
/** Seconds between 1904-01-01 (ISO BMFF epoch) and 1970-01-01. */
const MAC_EPOCH_OFFSET_S = 2082844800;
/** Top-level box types are printable ASCII: anything else is not MP4/MOV (or past its end). */
const TOP_LEVEL_TYPE = /^[\x20-\x7e]{4}$/;

/** A top-level box, by its place in the file. */
interface Placed {
  start: number;
  size: number;
}

/** Finds ftyp and moov among the top-level boxes, reading 16 bytes per box. */
async function locateBoxes(source: ByteSource): Promise<{ ftyp?: Placed; moov?: Placed }> {
  const found: { ftyp?: Placed; moov?: Placed } = {};
  let offset = 0;
  for (let i = 0; i < MAX_TOP_LEVEL_BOXES; i += 1) {
    // Positions in the 16 bytes read; a box must end by the end of the file.
    const box = boxAt(await source.read(offset, HEADER_BYTES), 0, source.size - offset);
    if (!box || !TOP_LEVEL_TYPE.test(box.type)) break;
    const placed = { start: offset, size: box.end };
    if (box.type === 'ftyp') found.ftyp = placed;
    if (box.type === 'moov') {
      found.moov = placed;
      break;
    }
    offset += box.end;
  }
  return found;
}

/** Returns undefined when the file has no readable moov (not MP4/MOV, or truncated). */
export async function probeMp4(source: ByteSource): Promise<Mp4Info | undefined> {
  const { ftyp, moov } = await locateBoxes(source);
  if (!moov || moov.size > MAX_MOOV_BYTES) return undefined;
  const moovBytes = await source.read(moov.start, moov.size);
  const parts = [
    ...(ftyp && ftyp.size <= 4096 ? [await source.read(ftyp.start, ftyp.size)] : []),
    moovBytes,
  ];
  // mp4box only needs the boxes one after another; sample offsets into mdat are never followed.
  const joined = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.byteLength;
  }
  const movie = parseMovie(joined);
  if (!movie || !movie.timescale) return undefined;
  // mvhd is rewritten by every trim or export; the phone's own key keeps the moment of filming.
  const metadata = metadataDates(moovBytes);
  return {
    durationSeconds: movie.duration / movie.timescale,
    createdAt: metadata.appleCreationDate ?? creationDate(movie.created) ?? metadata.day,
  };
}

function parseMovie(bytes: Uint8Array): Movie | undefined {
  const file = createFile();
  let movie: Movie | undefined;
  file.onReady = (info) => {
    movie = info;
  };
  file.onError = () => undefined;
  const buffer = MP4BoxBuffer.fromArrayBuffer(bytes.slice().buffer, 0);
  try {
    file.appendBuffer(buffer, true);
    file.flush();
  } catch {
    return undefined;
  }
  return movie;
}

function creationDate(created: Date | undefined): Date | undefined {
  if (!created || Number.isNaN(created.getTime())) return undefined;
  // mp4box converts from the 1904 epoch; a zero creation_time lands exactly on 1904-01-01.
  if (created.getTime() <= -MAC_EPOCH_OFFSET_S * 1000) return undefined;
  return created;
}
