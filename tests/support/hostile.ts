// The hostile-input catalogue (issue 15): each case is one request an attacker might send and the
// refusal it must get. Tests list their cases in tables so every case is a named test, and the
// count shows in the test run and in `npm run bench -- hostile`.
import { expect } from 'vitest';
import { seedCompletedVideo, teamOf } from './seed.ts';
import type { TestServer } from './server.ts';

export interface HostileCase {
  name: string;
  method: string;
  /** Path and query; built late, from the fixture the test seeded. */
  path: string;
  /** A JSON body (serialised here), or raw bytes with their content type. */
  json?: unknown;
  raw?: { type: string; body: string | Uint8Array<ArrayBuffer> };
  /** Bearer token; none when undefined. */
  token?: string;
  headers?: Record<string, string>;
  /** The 4xx it must answer (or a list of acceptable ones); 422 when left out. */
  status?: number | number[];
  /** Extra checks on the answer (e.g. the clamped value the spec asks for). */
  check?: (answer: Answer) => void;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
}

/** "Never a hang": a case that takes longer than this fails. */
const CASE_TIMEOUT_MS = 20_000;

export async function send(server: TestServer, c: HostileCase): Promise<Answer> {
  const headers: Record<string, string> = { ...c.headers };
  if (c.token !== undefined) headers.authorization = `Bearer ${c.token}`;
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (c.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(c.json);
  } else if (c.raw) {
    headers['content-type'] = c.raw.type;
    body = c.raw.body;
  }
  const res = await fetch(server.url + c.path, {
    method: c.method,
    headers,
    body,
    signal: AbortSignal.timeout(CASE_TIMEOUT_MS),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** A clear refusal: the expected 4xx with {"detail": string | [{loc, msg, type}]}. */
export function expectRefusal(answer: Answer, status: number | number[] = 422): void {
  const allowed = Array.isArray(status) ? status : [status];
  expect(allowed, `status ${answer.status}: ${answer.text.slice(0, 300)}`).toContain(answer.status);
  const detail = (answer.json as { detail?: unknown } | undefined)?.detail;
  if (typeof detail === 'string') {
    expect(detail.length).toBeGreaterThan(0);
    return;
  }
  expect(Array.isArray(detail), answer.text.slice(0, 300)).toBe(true);
  for (const entry of detail as unknown[]) {
    expect(entry).toEqual(
      expect.objectContaining({ loc: expect.any(Array), msg: expect.any(String) }),
    );
  }
}

/** Sends a case and checks it: its own check when it has one, otherwise a refusal. */
export async function runCase(server: TestServer, c: HostileCase): Promise<void> {
  const answer = await send(server, c);
  expect(answer.status, `${c.name}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  if (c.check) c.check(answer);
  else expectRefusal(answer, c.status);
}

/** Two teams, each with a user and an analysed video: what the catalogue must leave intact. */
export interface HostileWorld {
  token: string;
  userId: string;
  videoId: string;
  /** Another team's video: never reachable with `token`. */
  otherVideoId: string;
  otherToken: string;
}

const OWNER = { email: 'owner@example.com', password: 'Hostile123', username: 'owner' };
const OTHER = { email: 'other@example.com', password: 'Hostile456', username: 'other' };

export async function seedHostileWorld(server: TestServer): Promise<HostileWorld> {
  const userId = await server.createUser({ ...OWNER, team: 'Owners', fullName: 'Owner One' });
  const otherId = await server.createUser({ ...OTHER, team: 'Others', fullName: 'Other Two' });
  const video = await seedCompletedVideo(server.ctx, {
    teamId: await teamOf(server.ctx, userId),
    ownerId: userId,
    title: 'Harbour at dawn',
    scenes: [{ description: 'Boats leave the harbour' }],
  });
  const other = await seedCompletedVideo(server.ctx, {
    teamId: await teamOf(server.ctx, otherId),
    ownerId: otherId,
    title: 'Private rehearsal',
    scenes: [{ description: 'A closed rehearsal' }],
  });
  return {
    token: await server.login(OWNER.email, OWNER.password),
    userId,
    videoId: video.id,
    otherVideoId: other.id,
    otherToken: await server.login(OTHER.email, OTHER.password),
  };
}

/**
 * After a run of cases: the server still answers, both accounts still sign in with their own
 * passwords and keep their names, and both videos are there with their titles and scenes.
 */
export async function expectWorldIntact(server: TestServer, world: HostileWorld): Promise<void> {
  expect((await server.call('GET', '/api/health')).status).toBe(200);
  for (const [account, videoId, title, fullName] of [
    [OWNER, world.videoId, 'Harbour at dawn', 'Owner One'],
    [OTHER, world.otherVideoId, 'Private rehearsal', 'Other Two'],
  ] as const) {
    const token = await server.login(account.email, account.password);
    const profile = await server.call('GET', '/api/profile', { token });
    expect(profile.body).toMatchObject({ email: account.email, full_name: fullName });
    const video = await server.call('GET', `/api/videos/${videoId}`, { token });
    expect(video.status).toBe(200);
    expect(video.body.title).toBe(title);
    expect(video.body.output_data.scenes).toHaveLength(1);
  }
}
