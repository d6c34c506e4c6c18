// The import under the server's limits: a 429 or 503 waits for Retry-After and the call goes on
// (a batch is throttled, never refused); a refused token stops the import in words.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FatalImportError, ImportClient } from './client.ts';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/** A server answering the given statuses in turn (the last one from then on). */
async function answering(statuses: number[]): Promise<{ url: string; times: number[] }> {
  const times: number[] = [];
  server = http.createServer((req, res) => {
    const status = statuses[Math.min(times.length, statuses.length - 1)]!;
    times.push(Date.now());
    if (status === 429 || status === 503) res.setHeader('retry-after', '1');
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(status < 400 ? { items: [] } : { detail: 'Slow down.' }));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, times };
}

const secrets = { uploadKey: Buffer.from('test key') };
const who = { email: 'op@example.com', team: 'Archive' };

describe('ImportClient', () => {
  it('waits for Retry-After on 429 and 503, then goes on', async () => {
    const { url, times } = await answering([429, 503, 200]);
    const client = new ImportClient(url, secrets, who);
    const res = await client.json('POST', '/api/videos/check-files', { files: [] });
    expect(res.status).toBe(200);
    expect(times).toHaveLength(3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(950);
    expect(client.throttled).toBe(2);
  });

  it('stops with words when the server refuses the token or is not there', async () => {
    const { url } = await answering([401]);
    const client = new ImportClient(url, secrets, who);
    await expect(client.json('POST', '/api/videos/check-files', {})).rejects.toThrow(
      /did not accept the import's token: it must use the same DATA_DIR/,
    );
    // A port nothing listens on any more.
    await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
    const gone = new ImportClient(url, secrets, who);
    await expect(gone.json('GET', '/api/videos/x')).rejects.toThrow(
      new FatalImportError(
        `Cannot reach the server at ${url}. The import talks to the running server: start it (npm start) with the same settings, or set HOST and PORT to where it listens.`,
      ),
    );
  });
});
