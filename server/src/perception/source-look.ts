// Small faces looked at again in the video itself (issue 43, docs/decisions/face-at-any-size.md).
// The scenes' frames are kept at most FRAME_MAX_WIDTH (640 px) wide: a face the video shows 50 px
// tall is 35 px there, too few pixels for ResNet-34 to describe it as it describes the photo it
// comes from. A face under SMALL_FACE_PX in the frame, where the video is at least SOURCE_GAIN
// times wider than the frame, is looked at in the video's own picture at the frame's time: one
// ffmpeg seek per such frame decodes the part of the picture around its small faces at full size,
// and each face is found and described again in a square around it there. The face keeps its box
// on the frame (its crop on the People pages); its descriptor is the one seen at full size.
import type { RgbImage } from '../analysis/local/ocr-image.ts';
import { QUIET, seconds, videoInputArgs, type VideoFormat } from '../media/args.ts';
import { parsePpms } from '../media/rgb-frames.ts';
import { runProcess } from '../media/run.ts';
import type { FaceFinding, Perception } from './detect.ts';
import { perceiveImage } from './thread.ts';

/** A face whose box's shorter side is under this (px of the stored frame) is small. */
export const SMALL_FACE_PX = 80;
/** Looked at again only where the video is at least this much wider than its frames. */
export const SOURCE_GAIN = 1.25;
/** The square a small face is found again in, against its box's longer side. */
export const AROUND_SMALL = 3;
/** A face found in the square is the small face when their boxes overlap this much (IoU). */
const SAME_FACE_IOU = 0.3;

/** The analysed video, to be decoded again at full size. */
export interface SourceVideo {
  ffmpeg: string;
  file: string;
  format: VideoFormat;
  /** Its displayed width (px), as the probe saw it. */
  width: number;
}

/** A rectangle (px, or fractions of a picture's sides). */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The square a small face is found again in, inside the picture (`width` x `height`). */
export function aroundFace([x, y, w, h]: readonly number[], width: number, height: number): Rect {
  const side = Math.max(w!, h!) * AROUND_SMALL;
  const x0 = Math.max(0, x! + w! / 2 - side / 2);
  const y0 = Math.max(0, y! + h! / 2 - side / 2);
  const x1 = Math.min(width, x! + w! / 2 + side / 2);
  const y1 = Math.min(height, y! + h! / 2 + side / 2);
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/** The smallest rectangle holding all of them. */
export function union(rects: readonly Rect[]): Rect {
  const x0 = Math.min(...rects.map((r) => r.x));
  const y0 = Math.min(...rects.map((r) => r.y));
  const x1 = Math.max(...rects.map((r) => r.x + r.w));
  const y1 = Math.max(...rects.map((r) => r.y + r.h));
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/** Intersection over union of two boxes (x, y, w, h). */
export function overlap(a: readonly number[], b: readonly number[]): number {
  const ix = Math.max(0, Math.min(a[0]! + a[2]!, b[0]! + b[2]!) - Math.max(a[0]!, b[0]!));
  const iy = Math.max(0, Math.min(a[1]! + a[3]!, b[1]! + b[3]!) - Math.max(a[1]!, b[1]!));
  const inter = ix * iy;
  const all = a[2]! * a[3]! + b[2]! * b[3]! - inter;
  return all > 0 ? inter / all : 0;
}

const fraction = (v: number): string => v.toFixed(6);

/**
 * One picture of the video at `ms` (from its first picture, as the analysis pass's frames are
 * timed), the part `part` (fractions of its sides) at full size with square pixels, as a PPM on
 * stdout. The crop comes before the scaling to square pixels, so fractions of the stored frame
 * are fractions of the decoded picture.
 */
export function sourceRegionArgs(source: SourceVideo, ms: number, part: Rect): string[] {
  const crop =
    `crop=w='iw*${fraction(part.w)}':h='ih*${fraction(part.h)}':` +
    `x='iw*${fraction(part.x)}':y='ih*${fraction(part.y)}'`;
  return [
    ...QUIET,
    // One decoding thread, as the analysis pass: the other core is the models'.
    ...['-threads', '1', '-ss', seconds(ms)],
    ...videoInputArgs(source.file, source.format),
    ...['-map', '0:v:0', '-frames:v', '1'],
    ...['-vf', `${crop},scale=w='max(2,trunc(iw*sar))':h=ih,setsar=1,format=rgb24`],
    ...['-c:v', 'ppm', '-f', 'image2pipe', 'pipe:1'],
  ];
}

/** The rectangle `r` (px) of the image, copied. */
function slice(image: RgbImage, r: Rect): RgbImage {
  const x0 = Math.max(0, Math.round(r.x));
  const y0 = Math.max(0, Math.round(r.y));
  const w = Math.min(image.width, Math.round(r.x + r.w)) - x0;
  const h = Math.min(image.height, Math.round(r.y + r.h)) - y0;
  const data = new Uint8Array(Math.max(0, w) * Math.max(0, h) * 3);
  for (let row = 0; row < h; row++) {
    const from = ((y0 + row) * image.width + x0) * 3;
    data.set(image.data.subarray(from, from + w * 3), row * w * 3);
  }
  return { width: Math.max(0, w), height: Math.max(0, h), data };
}

export interface SourceLook {
  faces: FaceFinding[];
  /** Whether the video was decoded for this frame. */
  decoded: boolean;
}

/**
 * The faces of a frame seen at `ms`, each small one described again from the video at full size
 * where the video is larger than the frame. A face not found again keeps its frame's descriptor.
 */
export async function sharpenSmallFaces(
  seen: Perception,
  ms: number | undefined,
  source: SourceVideo | undefined,
  signal?: AbortSignal,
): Promise<SourceLook> {
  const small = seen.faces.filter((f) => Math.min(f.box[2], f.box[3]) < SMALL_FACE_PX);
  const gain = source ? source.width / seen.width : 0;
  if (!source || ms === undefined || small.length === 0 || gain < SOURCE_GAIN) {
    return { faces: seen.faces, decoded: false };
  }
  const squares = small.map((f) => aroundFace(f.box, seen.width, seen.height));
  const region = union(squares);
  let picture: RgbImage | undefined;
  try {
    const part = {
      x: region.x / seen.width,
      y: region.y / seen.height,
      w: region.w / seen.width,
      h: region.h / seen.height,
    };
    const bytes = Math.ceil(region.w * gain + 4) * Math.ceil(region.h * gain + 4) * 3 * 1.5;
    const { stdout } = await runProcess(source.ffmpeg, sourceRegionArgs(source, ms, part), {
      signal,
      timeoutMs: 60_000,
      maxStdoutBytes: Math.ceil(bytes) + 4096,
    });
    picture = parsePpms(stdout)[0];
  } catch {
    signal?.throwIfAborted();
    // A picture the seek cannot reach (past the end, a damaged part): the frame's faces stand.
  }
  if (!picture || picture.width === 0) return { faces: seen.faces, decoded: false };
  // The picture's pixels per frame pixel, on each side.
  const kx = picture.width / region.w;
  const ky = picture.height / region.h;
  const faces = [...seen.faces];
  for (const [n, face] of small.entries()) {
    signal?.throwIfAborted();
    const sq = squares[n]!;
    const inPicture = {
      x: (sq.x - region.x) * kx,
      y: (sq.y - region.y) * ky,
      w: sq.w * kx,
      h: sq.h * ky,
    };
    const square = slice(picture, inPicture);
    if (square.width < 8 || square.height < 8) continue;
    const again = await perceiveImage(square, { faces: true, objects: false });
    const x0 = Math.max(0, Math.round(inPicture.x));
    const y0 = Math.max(0, Math.round(inPicture.y));
    // Its faces on the frame's pixels, the one most on the small face's box taken.
    let best: { iou: number; descriptor: number[] } | undefined;
    for (const f of again.faces) {
      if (f.descriptor.length === 0) continue;
      const onFrame = [
        region.x + (x0 + f.box[0]) / kx,
        region.y + (y0 + f.box[1]) / ky,
        f.box[2] / kx,
        f.box[3] / ky,
      ];
      const iou = overlap(onFrame, face.box);
      if (iou >= SAME_FACE_IOU && iou > (best?.iou ?? 0)) best = { iou, descriptor: f.descriptor };
    }
    if (best) faces[faces.indexOf(face)] = { ...face, descriptor: best.descriptor };
  }
  return { faces, decoded: true };
}
