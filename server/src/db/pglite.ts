import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import type { Db, Queryable, Row } from './db.ts';
import { lockEmbeddedDatabase } from './embedded-lock.ts';

/** Opens the embedded database; dataDir undefined means in memory (tests). */
export async function openPglite(dataDir: string | undefined): Promise<Db> {
  if (!dataDir) return wrapPglite(await PGlite.create({ extensions: { vector } }));
  fs.mkdirSync(dataDir, { recursive: true });
  const unlock = lockEmbeddedDatabase(dataDir);
  try {
    const db = wrapPglite(await PGlite.create({ dataDir, extensions: { vector } }));
    return {
      ...db,
      close: async () => {
        await db.close();
        unlock();
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

export function wrapPglite(pg: PGlite): Db {
  const asQueryable = (t: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T extends Row>(sql: string, params?: readonly unknown[]) {
      const res = await t.query<T>(sql, params as unknown[] | undefined);
      return res.rows;
    },
    async exec(sql: string) {
      await t.exec(sql);
    },
  });
  return {
    kind: 'pglite',
    connections: 1,
    ...asQueryable(pg),
    tx: (fn) => pg.transaction((t) => fn(asQueryable(t))),
    close: () => pg.close(),
  };
}
