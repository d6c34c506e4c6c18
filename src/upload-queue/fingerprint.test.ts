import { beforeAll, describe, expect, it } from 'vitest';
import { bytesOf, makeFile, useNodeBlobs } from './testing/node-blobs.ts';
import { describeFile, matchFile } from './fingerprint.ts';

const MIB = 1024 * 1024;

beforeAll(useNodeBlobs);

describe('file fingerprint', () => {
  it('accepts the same file picked again', async () => {
    const bytes = bytesOf(3 * MIB, 1);
    const meta = await describeFile(makeFile(bytes, 'a.mp4', 10));
    expect(await matchFile(meta, makeFile(bytes.slice(), 'a.mp4', 10))).toBeUndefined();
  });

  it('names the first difference: name, size, last-modified', async () => {
    const bytes = bytesOf(2 * MIB, 1);
    const meta = await describeFile(makeFile(bytes, 'a.mp4', 10));
    expect(await matchFile(meta, makeFile(bytes, 'b.mp4', 10))).toBe('name');
    expect(await matchFile(meta, makeFile(bytes.subarray(1), 'a.mp4', 10))).toBe('size');
    expect(await matchFile(meta, makeFile(bytes, 'a.mp4', 11))).toBe('lastModified');
  });

  it('sees a change in the first or last MiB, not in the middle it does not read', async () => {
    const bytes = bytesOf(3 * MIB, 1);
    const meta = await describeFile(makeFile(bytes, 'a.mp4', 10));
    for (const [at, expected] of [
      [0, 'content'],
      [3 * MIB - 1, 'content'],
      [1.5 * MIB, undefined],
    ] as const) {
      const changed = bytes.slice();
      changed[at] = (changed[at]! + 1) & 0xff;
      expect(await matchFile(meta, makeFile(changed, 'a.mp4', 10))).toBe(expected);
    }
  });

  it('handles files smaller than two MiB', async () => {
    const bytes = bytesOf(1000, 3);
    const meta = await describeFile(makeFile(bytes, 'a.mp4', 10));
    expect(await matchFile(meta, makeFile(bytes, 'a.mp4', 10))).toBeUndefined();
    expect(meta.edgeHash).toMatch(/^[0-9a-f]{64}$/);
  });
});
