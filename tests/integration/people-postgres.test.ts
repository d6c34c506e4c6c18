// Two workers assigning faces of one team at once, on a real PostgreSQL server (READ COMMITTED,
// a pool of connections, the whole migrated schema), where PGlite's single connection never
// interleaves them: the test races the step that can make a duplicate, "no group for this face
// yet, so start one", under the team lock assign.ts takes.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../server/src/db/db.ts';
import { openPostgres } from '../../server/src/db/postgres.ts';
import { lockTeamPeople } from '../../server/src/people/store.ts';
import { newPostgresDatabase } from '../support/test-db.ts';

const WORKERS = 6;
let db: Db;

beforeAll(async () => {
  db = await openPostgres(await newPostgresDatabase());
}, 120_000);

afterAll(async () => {
  await db?.close();
});

async function newTeam(): Promise<string> {
  const [team] = await db.query<{ id: string }>(
    `INSERT INTO teams (name) VALUES ('t') RETURNING id`,
  );
  return team!.id;
}

/** One worker's assignment of a new face: look for its group, wait (the index look-up), else make one. */
async function assignOne(teamId: string, locked: boolean): Promise<void> {
  await db.tx(async (q: Queryable) => {
    if (locked) await lockTeamPeople(q, teamId);
    const found = await q.query('SELECT id FROM people WHERE team_id = $1', [teamId]);
    await sleep(50);
    if (found.length === 0) await q.query('INSERT INTO people (team_id) VALUES ($1)', [teamId]);
  });
}

describe('people on PostgreSQL', () => {
  it('two workers never start two groups for one new person under the team lock', async () => {
    const team = await newTeam();
    await Promise.all(Array.from({ length: WORKERS }, () => assignOne(team, true)));
    expect(await db.query('SELECT id FROM people WHERE team_id = $1', [team])).toHaveLength(1);
  });

  it('without the lock they would (the race is real here)', async () => {
    const team = await newTeam();
    await Promise.all(Array.from({ length: WORKERS }, () => assignOne(team, false)));
    const groups = await db.query('SELECT id FROM people WHERE team_id = $1', [team]);
    expect(groups.length).toBeGreaterThan(1);
  });

  it('locks one team only: another team assigns meanwhile', async () => {
    const [a, b] = [await newTeam(), await newTeam()];
    let released = false;
    const held = db.tx(async (q) => {
      await lockTeamPeople(q, a);
      await sleep(3000);
      released = true;
    });
    await assignOne(b, true);
    expect(released).toBe(false);
    await held;
  });

  it('a name is unique in a team whatever its case, and free in another', async () => {
    const [a, b] = [await newTeam(), await newTeam()];
    await db.query(`INSERT INTO people (team_id, name) VALUES ($1, 'Ann')`, [a]);
    await expect(
      db.query(`INSERT INTO people (team_id, name) VALUES ($1, 'ann')`, [a]),
    ).rejects.toThrow(/people_team_name_key/);
    await db.query(`INSERT INTO people (team_id, name) VALUES ($1, 'ann')`, [b]);
    await db.query(`INSERT INTO people (team_id) VALUES ($1), ($1)`, [a]);
  });
});
