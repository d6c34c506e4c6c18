// make-trailer / make-report requests racing on a real PostgreSQL server (READ COMMITTED, many
// connections), where PGlite's single connection can never interleave them. Each request runs as
// the route does: startCreating and the job's insert in one transaction, on the whole migrated
// schema (tests/support/test-db.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/src/db/db.ts';
import { openPostgres } from '../../server/src/db/postgres.ts';
import { insertJob } from '../../server/src/jobs/job-store.ts';
import {
  startCreating,
  type OutputKind,
  type StartOutcome,
} from '../../server/src/repositories/outputs.ts';
import { newPostgresDatabase } from '../support/test-db.ts';

const REQUESTS = 8;
const JOB = { trailer: 'make-trailer', report: 'make-report' } as const;
let db: Db;
let teamId: string;

beforeAll(async () => {
  // One pool of 10 connections: every request's transaction has its own.
  db = await openPostgres(await newPostgresDatabase());
  const [team] = await db.query<{ id: string }>(
    `INSERT INTO teams (name) VALUES ('race') RETURNING id`,
  );
  teamId = team!.id;
}, 120_000);

afterAll(async () => {
  await db?.close();
});

async function seedVideo(fields: Record<string, unknown> = {}): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO videos (team_id, filename, status) VALUES ($1, 'v.mp4', 'completed') RETURNING id`,
    [teamId],
  );
  for (const [column, value] of Object.entries(fields)) {
    await db.query(`UPDATE videos SET ${column} = $2 WHERE id = $1`, [row!.id, value]);
  }
  return row!.id;
}

/** What the route does in its transaction; the pause stands for the enqueue's round trip. */
function request(kind: OutputKind, videoId: string, instruction: string): Promise<StartOutcome> {
  return db.tx(async (q) => {
    const outcome = await startCreating(q, kind, { teamId, videoId, instruction });
    if (outcome === 'started') {
      await sleep(20);
      await insertJob(q, { name: JOB[kind], videoId, runAt: Date.now(), maxAttempts: 3 });
    }
    return outcome;
  });
}

async function liveJobs(videoId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM jobs WHERE video_id = $1 AND state IN ('queued', 'running')`,
    [videoId],
  );
  return row!.n;
}

describe('make-trailer and make-report racing on PostgreSQL', () => {
  for (const kind of ['trailer', 'report'] as const) {
    it(`lets exactly one of ${REQUESTS} simultaneous ${kind} requests win`, async () => {
      for (let round = 0; round < 3; round++) {
        const id = await seedVideo();
        const instructions = Array.from({ length: REQUESTS }, (_, i) => `instruction ${i}`);
        const outcomes = await Promise.all(instructions.map((text) => request(kind, id, text)));
        const winners = outcomes.flatMap((o, i) => (o === 'started' ? [i] : []));
        expect(winners).toHaveLength(1);
        expect(outcomes.filter((o) => o === 'busy')).toHaveLength(REQUESTS - 1);
        // The winner's instruction is the one stored: no loser overwrote it.
        const [row] = await db.query<{ text: string | null }>(
          kind === 'trailer'
            ? 'SELECT trailer_instruction AS text FROM videos WHERE id = $1'
            : `SELECT output_data->>'report_instruction' AS text FROM videos WHERE id = $1`,
          [id],
        );
        expect(row!.text).toBe(instructions[winners[0]!]);
        expect(await liveJobs(id)).toBe(1);
      }
    }, 60_000);
  }

  it('still starts over a flag left set by a job that no longer exists', async () => {
    const id = await seedVideo({ is_trailer_creating: true });
    await db.query(
      `INSERT INTO jobs (name, video_id, state) VALUES ('make-trailer', $1, 'failed')`,
      [id],
    );
    const outcomes = await Promise.all([
      request('trailer', id, 'first'),
      request('trailer', id, 'second'),
    ]);
    expect([...outcomes].sort()).toEqual(['busy', 'started']);
    expect(await liveJobs(id)).toBe(1);
  });

  it('answers not found, not completed and busy without touching the video', async () => {
    const id = await seedVideo({ is_report_creating: true });
    await db.query(`INSERT INTO jobs (name, video_id) VALUES ('make-report', $1)`, [id]);
    expect(await request('report', id, 'again')).toBe('busy');
    const pending = await seedVideo({ status: 'in_progress' });
    expect(await request('report', pending, 'x')).toBe('not_completed');
    expect(await request('report', crypto.randomUUID(), 'x')).toBe('not_found');
    const rows = await db.query<{ id: string; flag: boolean; text: string | null }>(
      `SELECT id, is_report_creating AS flag, output_data->>'report_instruction' AS text
       FROM videos WHERE id = ANY($1::uuid[]) ORDER BY id`,
      [[id, pending]],
    );
    expect(rows.map((r) => [r.id, r.flag, r.text])).toEqual(
      [
        [id, true, null],
        [pending, false, null],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
  });
});
