// The keyword index's term lists, held in memory by each server process
// (docs/decisions/keyword-lists-in-memory.md). The database stays the only truth: a list is read from
// search_postings the first time a query needs it, then kept up to date from search_changes (the
// videos whose documents each version of a team's and kind's index added or removed, migration
// 012) rather than read again, so that indexing a video costs each process the postings of that
// video only. A document is a key, vno * 2^20 + scene_idx + 1, where vno numbers a video's current
// documents in this process: a video indexed again gets a new number and its old one is dead.
// Lists are evicted least recently used beyond a memory budget.
import type { Db } from '../db/db.ts';
import { bytesOf, fromPostings, merge, partsOf, type Posting, type TermList } from './term-list.ts';

const SCENES = 2 ** 20;
/**
 * Memory for the lists of every team and kind (12 bytes a posting: about 16.8M postings). An
 * archive of 1M scenes has 10.8M postings: at 128 MB a quarter of the scenes' terms (300-1,000
 * postings each) were left out of what is read ahead, and a "similar scenes" query that met them
 * read them (p95 40 ms); reading more ahead within 128 MB evicted lists the next query needed.
 */
export const LIST_BUDGET_BYTES = 192 * 2 ** 20;
/** Dead videos whose postings are removed from every list at once, past this many. */
const DEAD_SWEEP = 256;

/** One team's lists of one kind of document (videos or scenes). */
class KindLists {
  /** The index version the lists hold every change up to; -1: nothing read yet. */
  version = -1;
  avgdl: number | null = null;
  // Replaced, never cleared, when the lists are read again or swept: a view made before keeps
  // reading what its lists were made with.
  lists = new Map<string, TermList>();
  videoNo = new Map<string, number>();
  videoIds: string[] = [];
  dead = new Set<number>();
  /** Syncs and loads one at a time. */
  lock: Promise<unknown> = Promise.resolve();

  constructor(
    readonly teamId: string,
    readonly kind: number,
  ) {}

  no(videoId: string): number {
    let no = this.videoNo.get(videoId);
    if (no === undefined) {
      no = this.videoIds.length;
      this.videoIds.push(videoId);
      this.videoNo.set(videoId, no);
    }
    return no;
  }

  forget(videoId: string): void {
    const no = this.videoNo.get(videoId);
    if (no === undefined) return;
    this.videoNo.delete(videoId);
    this.dead.add(no);
  }
}

const videoNoOf = (key: number): number => Math.floor(key / SCENES);
const sceneOf = (key: number): number => (key % SCENES) - 1;
const keyOf = (videoNo: number, sceneIdx: number): number => videoNo * SCENES + sceneIdx + 1;

function sweep(kl: KindLists): void {
  const lists = new Map<string, TermList>();
  for (const [term, l] of kl.lists) {
    const kept: Posting[] = [];
    for (let i = 0; i < l.length; i++) {
      if (!kl.dead.has(videoNoOf(l.keys[i]!)))
        kept.push({ key: l.keys[i]!, impact: l.impacts[i]! });
    }
    lists.set(term, fromPostings(kept, l.used));
  }
  kl.lists = lists;
  kl.dead = new Set();
}

/** A float4 printed by PostgreSQL (shortest exact digits) back to the same float4. */
const float4 = (text: string): number => Math.fround(Number(text));

export interface ListsView {
  lists: (TermList | undefined)[];
  /** Video id and scene index of a key. */
  videoOf(key: number): string;
  sceneOf(key: number): number;
  /** The keys' video number, or undefined when this process holds none of its documents. */
  videoNo(videoId: string): number | undefined;
  videoNoOf(key: number): number;
  keyOf(videoNo: number, sceneIdx: number): number;
  isDead(key: number): boolean;
  tie: (a: number, b: number) => number;
}

export class KeywordLists {
  private readonly kinds = new Map<string, KindLists>();
  private clock = 0;
  /** Postings read from the database (cold lists and the changes), for the bench. */
  loadedPostings = 0;

  constructor(
    private readonly db: Db,
    /** Bytes of lists kept (a test may lower it). */
    public budget = LIST_BUDGET_BYTES,
    /** Dead videos that make every list be swept of them (a test may lower it). */
    public deadSweep = DEAD_SWEEP,
  ) {}

  bytes(): number {
    let sum = 0;
    for (const kl of this.kinds.values()) for (const l of kl.lists.values()) sum += bytesOf(l);
    return sum;
  }

  /**
   * The lists of these terms as of at least `version` (read with the query's weights), and the
   * means to read their keys. `avgdl` is the average length the stored impacts were made with:
   * when it moved, every impact did, and the lists are read again.
   */
  async open(
    teamId: string,
    kind: number,
    version: number,
    avgdl: number,
    terms: readonly string[],
  ): Promise<ListsView> {
    const id = `${teamId}/${kind}`;
    let kl = this.kinds.get(id);
    if (!kl) this.kinds.set(id, (kl = new KindLists(teamId, kind)));
    const k = kl;
    const read = this.loadedPostings;
    const run = k.lock.then(async () => {
      await this.sync(k, version, avgdl);
      await this.load(k, terms);
    });
    k.lock = run.catch(() => undefined);
    await run;
    const used = ++this.clock;
    const lists = terms.map((t) => {
      const l = k.lists.get(t);
      if (l) l.used = used;
      return l;
    });
    // Only reading adds to the lists: nothing read, nothing to evict.
    if (this.loadedPostings !== read) this.evict(used);
    const { videoIds, videoNo, dead } = k;
    const videoOf = (key: number): string => videoIds[videoNoOf(key)]!;
    return {
      lists,
      videoOf,
      sceneOf,
      videoNo: (v) => videoNo.get(v),
      videoNoOf,
      keyOf,
      isDead: (key) => dead.size > 0 && dead.has(videoNoOf(key)),
      // As the database orders documents: video id, then scene.
      tie: (a, b) => {
        const va = videoOf(a);
        const vb = videoOf(b);
        return va < vb ? -1 : va > vb ? 1 : sceneOf(a) - sceneOf(b);
      },
    };
  }

  private reset(k: KindLists, version: number, avgdl: number): void {
    k.lists = new Map();
    k.videoNo = new Map();
    k.videoIds = [];
    k.dead = new Set();
    k.version = version;
    k.avgdl = avgdl;
  }

  private async sync(k: KindLists, version: number, avgdl: number): Promise<void> {
    // A caller that read the statistics before the last sync: the lists are newer already.
    if (version < k.version) return;
    if (k.avgdl !== avgdl || k.lists.size === 0) {
      this.reset(k, version, avgdl);
      return;
    }
    if (version === k.version) return;
    const changes = await this.db.query<{ version: string; video_id: string; added: boolean }>(
      `SELECT version::text, video_id, added FROM search_changes
       WHERE team_id = $1 AND kind = $2 AND version > $3 AND version <= $4
       ORDER BY version, video_id`,
      [k.teamId, k.kind, k.version, version],
    );
    // Versions follow each other: a gap means the log was pruned past this process.
    const seen = new Set(changes.map((c) => Number(c.version)));
    if (seen.size !== version - k.version) {
      this.reset(k, version, avgdl);
      return;
    }
    const lastAdded = new Map<string, boolean>();
    for (const c of changes) {
      if (!c.added) k.forget(c.video_id);
      lastAdded.set(c.video_id, c.added);
    }
    const added = [...lastAdded].filter(([, a]) => a).map(([v]) => v);
    if (added.length > 0) await this.addVideos(k, added);
    if (k.dead.size > this.deadSweep) sweep(k);
    k.version = version;
  }

  /** The postings of these videos' documents, into the lists held. */
  private async addVideos(k: KindLists, videoIds: string[]): Promise<void> {
    const rows = await this.db.query<{
      term: string;
      video_id: string;
      scene_idx: number;
      impact: number;
    }>(
      `SELECT term, video_id, scene_idx, impact FROM search_postings
       WHERE video_id = ANY($1::uuid[]) AND team_id = $2 AND kind = $3`,
      [videoIds, k.teamId, k.kind],
    );
    this.loadedPostings += rows.length;
    const byTerm = new Map<string, Posting[]>();
    for (const r of rows) {
      if (!k.lists.has(r.term)) continue;
      let ps = byTerm.get(r.term);
      if (!ps) byTerm.set(r.term, (ps = []));
      ps.push({ key: keyOf(k.no(r.video_id), r.scene_idx), impact: Math.fround(r.impact) });
    }
    for (const [term, ps] of byTerm) k.lists.set(term, merge(k.lists.get(term)!, ps));
  }

  /** Reads the lists not held yet, in one statement. */
  private async load(k: KindLists, terms: readonly string[]): Promise<void> {
    const missing = terms.filter((t) => !k.lists.has(t));
    if (missing.length === 0) return;
    // Three strings per term rather than a row per posting: a third of the time on PGlite.
    const rows = await this.db.query<{ term: string; v: string; s: string; i: string }>(
      `SELECT term, string_agg(video_id::text, '') AS v, string_agg(scene_idx::text, ',') AS s,
              string_agg(impact::text, ',') AS i
       FROM search_postings WHERE team_id = $1 AND kind = $2 AND term = ANY($3::text[])
       GROUP BY term`,
      [k.teamId, k.kind, missing],
    );
    const read = new Map(rows.map((r) => [r.term, r]));
    for (const term of missing) {
      const r = read.get(term);
      const postings: Posting[] = [];
      if (r) {
        const scenes = r.s.split(',');
        const impacts = r.i.split(',');
        for (let j = 0; j < scenes.length; j++) {
          const no = k.no(r.v.slice(j * 36, j * 36 + 36));
          postings.push({ key: keyOf(no, Number(scenes[j])), impact: float4(impacts[j]!) });
        }
      }
      this.loadedPostings += postings.length;
      const list = fromPostings(postings, this.clock);
      // Its impact layers now, while reading (for the lists read ahead, before any query): made
      // on first use, a long list's took its first query several milliseconds (a "similar"
      // query at 1M scenes: p95 35 ms on first sight of its terms, 9 after).
      partsOf(list);
      k.lists.set(term, list);
    }
  }

  /** Least recently used lists out, down to the budget; the current query's (used) stay. */
  private evict(used: number): void {
    let total = this.bytes();
    if (total <= this.budget) return;
    const all: [KindLists, string, TermList][] = [];
    for (const kl of this.kinds.values()) for (const [t, l] of kl.lists) all.push([kl, t, l]);
    all.sort((a, b) => a[2].used - b[2].used);
    for (const [kl, term, l] of all) {
      if (total <= this.budget || l.used >= used) break;
      kl.lists.delete(term);
      total -= bytesOf(l);
    }
  }
}

const perDb = new WeakMap<Db, KeywordLists>();

/** The lists of this database's keyword index held by this process. */
export function keywordLists(db: Db): KeywordLists {
  let lists = perDb.get(db);
  if (!lists) perDb.set(db, (lists = new KeywordLists(db)));
  return lists;
}
