// Another handle on the same database, as a second server process holds it: the keyword lists a
// process keeps in memory (server/src/search/term-lists.ts) are per handle, so this one starts
// with none and must catch up with what the first one indexed.
import type { Db, Row } from '../../server/src/db/db.ts';

export function otherProcess(db: Db): Db {
  return {
    kind: db.kind,
    connections: db.connections,
    exclusiveTx: db.exclusiveTx,
    query: <T extends Row = Row>(sql: string, params?: readonly unknown[]) =>
      db.query<T>(sql, params),
    queryWith: <T extends Row = Row>(
      settings: Readonly<Record<string, string>>,
      sql: string,
      params?: readonly unknown[],
    ) => db.queryWith<T>(settings, sql, params),
    exec: (sql) => db.exec(sql),
    ping: () => db.ping(),
    tx: (fn) => db.tx(fn),
    close: () => Promise.resolve(),
  };
}
