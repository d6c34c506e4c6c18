// Security headers on every answer (issue 15 "Framing and scripts"): the app shell runs only its
// own scripts and the one inline first-paint script by hash, nothing may frame the app, API
// answers are never sniffed into documents, and HSTS is sent only over TLS. The end-to-end
// journeys run under these headers and fail on any policy violation (tests/e2e/support).
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config.ts';
import { REPORT_CSP } from '../../server/src/routes/outputs/report-page.ts';
import { registerSecurityHeaders } from '../../server/src/plugins/security-headers.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const INLINE = "document.body.dataset.painted='yes'";
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ WORKER: 'off' });
  const webRoot = path.join(server.dataDir, 'no-web');
  await server.close();
  // A built shell with one inline script, as vite-plugins' first-paint script makes it.
  fs.mkdirSync(webRoot, { recursive: true });
  fs.writeFileSync(
    path.join(webRoot, 'index.html'),
    `<!doctype html><html><body><div id="root"></div><script>${INLINE}</script></body></html>`,
  );
  server = await startTestServer({ WORKER: 'off', WEB_ROOT: webRoot });
  await server.createUser({ email: 'h@example.com', password: 'Headers123' });
  token = await server.login('h@example.com', 'Headers123');
}, 180_000);
afterAll(() => server?.close());

function policy(res: Response): Map<string, string[]> {
  const csp = res.headers.get('content-security-policy') ?? '';
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function expectCommonHeaders(res: Response): void {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  // Not same-origin: that costs every first visit a new renderer process (security-headers.md).
  expect(res.headers.get('cross-origin-opener-policy')).toBe('unsafe-none');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(policy(res).get('frame-ancestors')).toEqual(["'none'"]);
  // Plain http: a browser must not be told to insist on TLS for this host.
  expect(res.headers.get('strict-transport-security')).toBeNull();
}

describe('security headers', () => {
  it('the app shell runs its own scripts and the inline first-paint script, nothing inline else', async () => {
    for (const url of ['/', '/videos/123', '/reset-password?resetToken=abc']) {
      const res = await fetch(server.url + url);
      expect(res.status, url).toBe(200);
      expectCommonHeaders(res);
      const scripts = policy(res).get('script-src') ?? [];
      const hash = crypto.createHash('sha256').update(INLINE).digest('base64');
      expect(scripts).toEqual(["'self'", "'wasm-unsafe-eval'", `'sha256-${hash}'`]);
      expect(scripts).not.toContain("'unsafe-inline'");
      expect(scripts).not.toContain("'unsafe-eval'");
      expect(policy(res).get('object-src')).toEqual(["'none'"]);
      expect(policy(res).get('base-uri')).toEqual(["'none'"]);
    }
  });

  it('API answers, errors and not-found pages carry them too, with a policy that allows nothing', async () => {
    const answers = [
      await fetch(`${server.url}/api/health`),
      await fetch(`${server.url}/api/profile`, { headers: { authorization: `Bearer ${token}` } }),
      await fetch(`${server.url}/api/profile`),
      await fetch(`${server.url}/api/nothing-here`),
      await fetch(`${server.url}/api/videos/%zz`),
      await fetch(`${server.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"email":',
      }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 401, 404, 400, 400]);
    for (const res of answers) {
      expectCommonHeaders(res);
      expect(policy(res).get('default-src')).toEqual(["'none'"]);
    }
  });

  it('keeps the stricter policy a route sets itself (the report page)', async () => {
    const res = await fetch(
      `${server.url}/api/videos/0b6d6a34-5e0f-4c8e-9d51-2f3b7f0c9a11/report/report.html`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(res.status).toBe(404);
    const page = await fetch(`${server.url}/api/videos/x/report/report.html?exp=1&sig=x`);
    expectCommonHeaders(page);
    expect(REPORT_CSP).toContain("frame-ancestors 'none'");
  });

  it('ignores X-Forwarded-Proto from a client that is not a trusted proxy', async () => {
    const res = await fetch(`${server.url}/api/health`, {
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('sends HSTS when the request came over https through a trusted proxy', async () => {
    const app = Fastify({ trustProxy: true });
    registerSecurityHeaders(app, loadConfig({ DATA_DIR: server.dataDir }));
    app.get('/api/health', async () => ({ status: 'ok' }));
    const tls = await app.inject({ url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers['strict-transport-security']).toBe('max-age=31536000');
    const plain = await app.inject({ url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    await app.close();
  });
});
