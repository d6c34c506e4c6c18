// The embedded database in its thread (pglite.ts): statements prepared once still follow the
// schema, a transaction runs alone as on one connection, a statement's settings hold for it, and
// errors keep their database fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db.ts';
import { openPglite } from './pglite.ts';

let db: Db;

beforeAll(async () => {
  db = await openPglite(undefined);
  await db.exec('CREATE TABLE t (id int PRIMARY KEY, name text)');
}, 60_000);

afterAll(async () => {
  await db.close();
});

describe('PGlite in its thread', () => {
  it('answers a kept statement again after its table changed', async () => {
    await db.query('INSERT INTO t (id, name) VALUES ($1, $2)', [1, 'one']);
    expect(await db.query('SELECT * FROM t ORDER BY id')).toEqual([{ id: 1, name: 'one' }]);
    await db.exec('ALTER TABLE t ADD COLUMN note text');
    expect(await db.query('SELECT * FROM t ORDER BY id')).toEqual([
      { id: 1, name: 'one', note: null },
    ]);
  });

  it('keeps answering past its statement cache, with values and types as PGlite gives them', async () => {
    for (let i = 0; i < 520; i++) {
      const [row] = await db.query<{ n: number; d: Date; j: unknown }>(
        `SELECT $1::int + ${i} AS n, $2::timestamptz AS d, $3::jsonb AS j`,
        [1, new Date(0), { a: [i] }],
      );
      expect(row).toEqual({ n: 1 + i, d: new Date(0), j: { a: [i] } });
    }
  });

  it('runs a transaction alone: a statement sent meanwhile sees only what it committed', async () => {
    let inside: () => void = () => undefined;
    const opened = new Promise<void>((r) => (inside = r));
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const tx = db.tx(async (q) => {
      await q.query("INSERT INTO t (id, name) VALUES (2, 'two')");
      inside();
      await held;
      await q.query("UPDATE t SET name = 'TWO' WHERE id = 2");
    });
    await opened;
    const outside = db.query<{ name: string }>('SELECT name FROM t WHERE id = 2');
    release();
    await tx;
    expect(await outside).toEqual([{ name: 'TWO' }]);
  });

  it('runs a statement with its settings in force, each statement with its own', async () => {
    const width = (ef: string): Promise<{ v: string }[]> =>
      db.queryWith({ 'hnsw.ef_search': ef }, "SELECT current_setting('hnsw.ef_search') AS v");
    const answers = await Promise.all([width('120'), width('120'), width('340'), width('120')]);
    expect(answers.map((rows) => rows[0]!.v)).toEqual(['120', '120', '340', '120']);
    const after = await db.query<{ v: string | null }>(
      "SELECT current_setting('hnsw.ef_search', true) AS v",
    );
    expect(after[0]!.v ?? '').not.toBe('120');
  });

  it('rolls a failed transaction back and keeps the error code', async () => {
    const failed = db.tx(async (q) => {
      await q.query("INSERT INTO t (id, name) VALUES (3, 'three')");
      await q.query("INSERT INTO t (id, name) VALUES (3, 'again')");
    });
    await expect(failed).rejects.toMatchObject({ code: '23505' });
    expect(await db.query('SELECT id FROM t WHERE id = 3')).toEqual([]);
  });
});
