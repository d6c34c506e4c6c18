// The files chosen in step 2, read and checked: each one's duration and date (probed in the
// worker, a few at a time) and whether the archive already has it (by size first, then by the
// SHA-256 of the files whose size matched one there). Hundreds of answers arrive in a burst, so
// they are gathered and shown a few times a second, not one render each.
import { useEffect, useRef, useState } from 'react';
import { PROBES_AT_ONCE } from '../../../config/upload-queue';
import type { ArchivedVideo } from '../../../upload-queue/batch-types';
import type { FileCheck, FileToCheck } from '../api';
import type { ProbeFn } from '../hooks/use-video-probe';
import type { ChosenFile } from './chosen-files';

/** Answers the check, or throws (offline, server error): the files then go unchecked. */
export type CheckFn = (files: FileToCheck[]) => Promise<FileCheck[]>;
export type HashFn = (file: File, signal?: AbortSignal) => Promise<string>;

export interface ChosenItem {
  key: string;
  chosen: ChosenFile;
  probe: 'probing' | 'done' | 'failed';
  durationSeconds?: number;
  videoDate?: string;
  /** unchecked: the check could not be made (offline): the server still refuses a duplicate. */
  check: 'checking' | 'hashing' | 'new' | 'in-archive' | 'unchecked';
  sha256?: string;
  inArchive?: ArchivedVideo;
}

const FLUSH_MS = 120;
/** Hashes sent to the server per check call. */
const HASHES_PER_CHECK = 50;

/** Runs task over items with at most `limit` at a time. */
async function pool<T>(
  items: T[],
  limit: number,
  task: (item: T) => Promise<void>,
  signal: AbortSignal,
) {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length && !signal.aborted) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

async function checkSizes(
  items: ChosenItem[],
  check: CheckFn,
  hash: HashFn,
  update: (key: string, change: Partial<ChosenItem>) => void,
  signal: AbortSignal,
): Promise<void> {
  const byKey = new Map(items.map((item) => [item.key, item]));
  const settle = (answers: FileCheck[]): void => {
    for (const answer of answers) {
      if (answer.state === 'in-archive' && answer.video)
        update(answer.key, { check: 'in-archive', inArchive: answer.video });
      else if (answer.state === 'new') update(answer.key, { check: 'new' });
    }
  };
  let sameSize: ChosenItem[];
  try {
    const answers = await check(items.map((i) => ({ key: i.key, size: i.chosen.file.size })));
    settle(answers);
    sameSize = answers
      .filter((a) => a.state === 'needs-hash')
      .map((a) => byKey.get(a.key))
      .filter((i): i is ChosenItem => i !== undefined);
  } catch {
    for (const item of items) update(item.key, { check: 'unchecked' });
    return;
  }
  // Only files whose size matched one in the archive are read whole, one at a time.
  let hashed: FileToCheck[] = [];
  const send = async (): Promise<void> => {
    const asking = hashed;
    hashed = [];
    if (asking.length === 0) return;
    try {
      settle(await check(asking));
    } catch {
      for (const file of asking) update(file.key, { check: 'unchecked' });
    }
  };
  for (const item of sameSize) {
    if (signal.aborted) return;
    update(item.key, { check: 'hashing' });
    try {
      const sha256 = await hash(item.chosen.file, signal);
      update(item.key, { sha256 });
      hashed.push({ key: item.key, size: item.chosen.file.size, sha256 });
    } catch {
      if (signal.aborted) return;
      update(item.key, { check: 'unchecked' });
    }
    if (hashed.length >= HASHES_PER_CHECK) await send();
  }
  await send();
}

export function useChosenFiles(
  files: ChosenFile[],
  probe: ProbeFn,
  check: CheckFn,
  hash: HashFn,
): ChosenItem[] {
  const [items, setItems] = useState<ChosenItem[]>([]);
  const fns = useRef({ probe, check, hash });
  fns.current = { probe, check, hash };

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const current = files.map<ChosenItem>((chosen, index) => ({
      key: String(index),
      chosen,
      probe: 'probing',
      check: 'checking',
    }));
    const index = new Map(current.map((item, i) => [item.key, i]));
    setItems(current);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = (): void => {
      timer = undefined;
      if (!signal.aborted) setItems([...current]);
    };
    const update = (key: string, change: Partial<ChosenItem>): void => {
      const i = index.get(key);
      if (i === undefined || signal.aborted) return;
      current[i] = { ...current[i]!, ...change };
      timer ??= setTimeout(flush, FLUSH_MS);
    };
    if (current.length > 0) {
      void pool(
        current,
        PROBES_AT_ONCE,
        async (item) => {
          try {
            const result = await fns.current.probe(item.chosen.file, signal);
            const usable = Number.isFinite(result.durationSeconds) && result.durationSeconds > 0;
            update(
              item.key,
              usable
                ? {
                    probe: 'done',
                    durationSeconds: result.durationSeconds,
                    videoDate: result.videoDate,
                  }
                : { probe: 'failed' },
            );
          } catch {
            update(item.key, { probe: 'failed' });
          }
        },
        signal,
      );
      void checkSizes(current, fns.current.check, fns.current.hash, update, signal);
    }
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [files]);

  return items;
}

/** Read, and checked against the archive (or the check could not be made). */
export function isSettled(item: ChosenItem): boolean {
  return item.probe !== 'probing' && item.check !== 'checking' && item.check !== 'hashing';
}

/** Every file is read and checked: the choice can be queued. */
export function allSettled(items: ChosenItem[]): boolean {
  return items.every(isSettled);
}
