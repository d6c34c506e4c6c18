// @vitest-environment node
// The duration probe on real videos made by ffmpeg (issue 3): the duration and creation date of
// MP4 and MOV files with the index at the end or at the start, read from a few box headers and the
// moov only, never from the media data.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeClip, topLevelBoxes, type ClipSpec } from '../../tests/support/container-clips.ts';
import { blobSource } from './byte-source.ts';
import { probeMp4 } from './mp4-duration.ts';

const SECONDS = 4;
const CREATED = '2024-03-04T05:06:07Z';

async function probe(spec: ClipSpec) {
  const file = await makeClip(spec);
  const blob = (await fs.openAsBlob(file)) as unknown as Blob;
  const inner = blobSource(blob);
  const reads: { offset: number; end: number }[] = [];
  const source = {
    size: inner.size,
    read: (offset: number, length: number) => {
      reads.push({ offset, end: Math.min(blob.size, offset + length) });
      return inner.read(offset, length);
    },
  };
  const info = await probeMp4(source);
  return {
    info,
    reads,
    bytesRead: inner.bytesRead(),
    size: blob.size,
    boxes: topLevelBoxes(fs.readFileSync(file)),
  };
}

describe('probeMp4 on generated videos', { timeout: 60_000 }, () => {
  it.each([
    { format: 'mp4', faststart: false },
    { format: 'mp4', faststart: true },
    { format: 'mov', faststart: false },
    { format: 'mov', faststart: true },
  ] as const)(
    'reads duration and mvhd creation time of $format (faststart $faststart) from the moov alone',
    async ({ format, faststart }) => {
      const { info, reads, bytesRead, size, boxes } = await probe({
        seconds: SECONDS,
        format,
        faststart,
        metadata: { creation_time: CREATED },
      });
      const order = boxes.map((b) => b.type).filter((t) => t === 'moov' || t === 'mdat');
      expect(order).toEqual(faststart ? ['moov', 'mdat'] : ['mdat', 'moov']);

      expect(info?.durationSeconds).toBeCloseTo(SECONDS, 1);
      expect(info?.createdAt?.toISOString()).toBe('2024-03-04T05:06:07.000Z');

      // Not one byte of the media data: at most the mdat's header.
      const mdat = boxes.find((b) => b.type === 'mdat')!;
      const intoMedia = reads.filter(
        (r) => r.end > mdat.start + 16 && r.offset < mdat.start + mdat.size,
      );
      expect(intoMedia).toEqual([]);
      const moov = boxes.find((b) => b.type === 'moov')!;
      expect(bytesRead).toBeLessThan(moov.size + 4096);
      expect(bytesRead / size).toBeLessThan(0.02);
    },
  );

  it('answers no date when the file has no creation metadata', async () => {
    const { info } = await probe({ seconds: SECONDS, format: 'mp4' });
    expect(info?.durationSeconds).toBeCloseTo(SECONDS, 1);
    expect(info?.createdAt).toBeUndefined();
  });

  it("prefers the phone's QuickTime creation date to mvhd, which an export rewrites", async () => {
    const { info } = await probe({
      seconds: SECONDS,
      format: 'mov',
      quicktimeKeys: true,
      metadata: {
        'com.apple.quicktime.creationdate': '2023-05-06T07:08:09+0900',
        creation_time: '2024-01-01T00:00:00Z',
      },
    });
    expect(info?.createdAt?.toISOString()).toBe('2023-05-05T22:08:09.000Z');
  });

  it.each(['mov', 'mp4'] as const)(
    'reads udta ©day of a %s whose mvhd has no date',
    async (format) => {
      // MOV keeps ©day as QuickTime text, MP4 in an iTunes-style item list.
      const { info } = await probe({
        seconds: SECONDS,
        format,
        metadata: { date: '2022-02-03T04:05:06Z' },
      });
      expect(info?.createdAt?.toISOString()).toBe('2022-02-03T04:05:06.000Z');
    },
  );

  it('answers undefined for a file that is not ISO BMFF, after one header read', async () => {
    const { info, bytesRead } = await probe({ seconds: SECONDS, format: 'matroska' });
    expect(info).toBeUndefined();
    expect(bytesRead).toBeLessThanOrEqual(16);
  });
});
