// Statements on PGlite, prepared once and kept: PGlite's own query() parses and plans every
// statement again and talks to PostgreSQL in five exchanges. Here a statement text is parsed
// once into a named statement (PostgreSQL then keeps its plan, as a pool's prepared statements
// do on a server) and each run is one exchange: bind, describe, execute, sync. Planning was
// about 60% of a three-table lookup (~450 against ~170 us once prepared). Values and rows go
// through PGlite's own serializers and parsers, so they are exactly what query() gives.
import { parse, protocol, type PGlite } from '@electric-sql/pglite';
import { SET_LOCAL_SQL, type Row } from './db.ts';

/** Statement texts kept prepared; the least recently used one is closed beyond this. */
const KEPT = 500;

interface Prepared {
  name: string;
  paramTypes: number[];
}

const { serialize } = protocol;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export class PreparedStatements {
  private readonly kept = new Map<string, Prepared>();
  private made = 0;

  constructor(private readonly pg: PGlite) {}

  /**
   * One run; settings, when given, hold for it alone (set_config local to the implicit
   * transaction of the exchange, which ends with it).
   */
  async query(
    sql: string,
    params: readonly unknown[] = [],
    settings: Readonly<Record<string, string>> = {},
  ): Promise<Row[]> {
    try {
      return await this.run(sql, params, settings);
    } catch (err) {
      // A table's columns changed under a kept `SELECT *` (a migration): prepare it again.
      if (!(err instanceof Error) || !err.message.includes('cached plan must not change'))
        throw err;
      await this.forget(sql);
      return this.run(sql, params, settings);
    }
  }

  private async run(
    sql: string,
    params: readonly unknown[],
    settings: Readonly<Record<string, string>>,
  ): Promise<Row[]> {
    const setter =
      Object.keys(settings).length > 0 ? await this.prepared(SET_LOCAL_SQL) : undefined;
    const statement = await this.prepared(sql);
    const portal = (name: string, values: (string | null)[]): Uint8Array[] => [
      serialize.bind({ statement: name, values }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
    ];
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = this.pg.serializers[statement.paramTypes[i] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    const { messages } = await this.pg.execProtocol(
      concat([
        ...Object.entries(settings).flatMap(([name, value]) => portal(setter!.name, [name, value])),
        ...portal(statement.name, values),
        serialize.sync(),
      ]),
    );
    // One result per portal run: the statement's is the last.
    return (parse.parseResults(messages, this.pg.parsers).at(-1)?.rows ?? []) as Row[];
  }

  private async prepared(sql: string): Promise<Prepared> {
    const known = this.kept.get(sql);
    if (known) {
      // Most recently used last: the first entry is the one to close.
      this.kept.delete(sql);
      this.kept.set(sql, known);
      return known;
    }
    const name = `s${++this.made}`;
    const { messages } = await this.pg.execProtocol(
      concat([
        serialize.parse({ name, text: sql }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    this.kept.set(sql, statement);
    if (this.kept.size > KEPT) await this.forget(this.kept.keys().next().value as string);
    return statement;
  }

  private async forget(sql: string): Promise<void> {
    const statement = this.kept.get(sql);
    if (!statement) return;
    this.kept.delete(sql);
    await this.pg.execProtocol(
      concat([serialize.close({ type: 'S', name: statement.name }), serialize.sync()]),
    );
  }
}
