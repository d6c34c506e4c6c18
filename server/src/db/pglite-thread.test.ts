// Issue 31 (memory at rest): the database thread loads its TypeScript in the thread itself (tsx's
// require hook), not through a module-loader thread of its own (tsx's module hooks run in one,
// about 20 MB of RSS kept for the process's life): opening the database adds one thread to the
// process, the database's, and it answers.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openPglite } from './pglite.ts';

const threads = (): number => fs.readdirSync('/proc/self/task').length;

describe('the database thread', () => {
  it.skipIf(!fs.existsSync('/proc/self/task'))(
    'is the one thread opening the database adds',
    async () => {
      // libuv's file system threads start at their first use: before counting.
      await fs.promises.readFile(import.meta.filename);
      const before = threads();
      const db = await openPglite(undefined, { shortRun: true });
      try {
        expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
        expect(threads()).toBe(before + 1);
      } finally {
        await db.close();
      }
    },
    60_000,
  );
});
