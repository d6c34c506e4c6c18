// Whether the queue keeps its own copy of a video: whenever the quota has room, persistent or
// not, so a reload, a closed tab or a stopped worker never leaves the upload waiting for the user.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_HEADROOM_BYTES } from '../config/upload-queue.ts';
import { canStoreBlob, chooseFileKeep } from './file-source.ts';

const MB = 1024 * 1024;

function storage(quota: number, usage: number) {
  vi.stubGlobal('navigator', {
    storage: {
      estimate: () => Promise.resolve({ quota, usage }),
      persisted: () => Promise.resolve(false),
    },
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('canStoreBlob', () => {
  it('copies a file the quota has room for, even without persistent storage', async () => {
    storage(10_000 * MB, 1_000 * MB);
    await expect(canStoreBlob(500 * MB)).resolves.toBe(true);
  });

  it('does not copy a file that would eat into the headroom', async () => {
    storage(1_000 * MB, 100 * MB);
    await expect(canStoreBlob(900 * MB - STORAGE_HEADROOM_BYTES)).resolves.toBe(false);
  });

  it('does not copy where the browser cannot say how much room there is', async () => {
    vi.stubGlobal('navigator', {});
    await expect(canStoreBlob(1)).resolves.toBe(false);
  });
});

describe('chooseFileKeep', () => {
  it('prefers the copy, then a handle, then memory only', async () => {
    const handle = {} as FileSystemFileHandle;
    const yes = () => Promise.resolve(true);
    const no = () => Promise.resolve(false);
    expect(await chooseFileKeep(10, handle, yes)).toBe('blob');
    expect(await chooseFileKeep(10, handle, no)).toBe('handle');
    expect(await chooseFileKeep(10, undefined, no)).toBe('none');
  });
});
