// PUT /api/users/update-profile: validation with list details the client can map, usernames
// unique within a team (case-insensitively), the answer is the profile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser({
    email: 'mia@example.com',
    password: 'Mia123456',
    team: 'Blue',
    username: 'mia',
  });
  await server.createUser({
    email: 'ned@example.com',
    password: 'Ned123456',
    team: 'Blue',
    username: 'Ned.B',
  });
  await server.createUser({
    email: 'ola@example.com',
    password: 'Ola123456',
    team: 'Red',
    username: 'ola',
  });
  token = await server.login('mia@example.com', 'Mia123456');
}, 180_000); // starting a server takes long on a busy machine
afterAll(() => server.close());

const update = (body: unknown) => server.call('PUT', '/api/users/update-profile', { token, body });

describe('PUT /api/users/update-profile', () => {
  it('saves trimmed values and answers the profile', async () => {
    const res = await update({ full_name: '  Mia Example ', username: ' mia_e ' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      email: 'mia@example.com',
      full_name: 'Mia Example',
      username: 'mia_e',
      team: { name: 'Blue' },
    });
    const profile = await server.call('GET', '/api/profile', { token });
    expect(profile.body.full_name).toBe('Mia Example');
  });

  it('requires both fields, with messages that start with the field name', async () => {
    const res = await update({ full_name: '   ' });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['body', 'full_name'], msg: 'full_name is required', type: 'missing' },
      { loc: ['body', 'username'], msg: 'username is required', type: 'missing' },
    ]);
  });

  it('limits lengths and username characters', async () => {
    const long = await update({ full_name: 'x'.repeat(101), username: 'ab' });
    expect(long.status).toBe(422);
    expect(long.body.detail.map((d: { loc: string[] }) => d.loc[1])).toEqual([
      'full_name',
      'username',
    ]);
    expect(long.body.detail[0].msg).toMatch(/^full_name must be at most 100 characters/);
    expect(long.body.detail[1].msg).toMatch(/^username must be 3 to 50 characters/);
    const chars = await update({ full_name: 'Mia', username: 'mia example' });
    expect(chars.body.detail[0].msg).toMatch(/^username may contain only/);
    const ok = await update({ full_name: 'x'.repeat(100), username: 'a'.repeat(50) });
    expect(ok.status).toBe(200);
  });

  it('refuses a username taken in the same team, whatever its case, but not in another team', async () => {
    const taken = await update({ full_name: 'Mia', username: 'ned.b' });
    expect(taken.status).toBe(422);
    expect(taken.body.detail).toEqual([
      { loc: ['body', 'username'], msg: 'username is already taken', type: 'value_error' },
    ]);
    const otherTeam = await update({ full_name: 'Mia', username: 'OLA' });
    expect(otherTeam.status).toBe(200);
    // Keeping one's own username (in another case) is fine.
    expect((await update({ full_name: 'Mia', username: 'ola' })).status).toBe(200);
  });

  it('stores the interface language when given', async () => {
    const res = await update({ full_name: 'Mia', username: 'mia', language: 'ja' });
    expect(res.body.language).toBe('ja');
  });

  it('rejects a body that is not an object', async () => {
    expect((await update('text')).status).toBe(422);
  });
});
