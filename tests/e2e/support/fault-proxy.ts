// A reverse proxy between the browser and the server under test that can slow requests down or
// answer in the server's place. It sees the service worker's requests too (a page.route would
// not), and keeps the Host header so the server signs upload URLs for the proxy's origin.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
}

/**
 * What to do with one request: pass it on (maybe later), answer it here, or swallow it (read its
 * body and never answer, as over a half-open connection).
 */
export type FaultRule = (
  request: SeenRequest,
) =>
  | { delayMs?: number; respond?: undefined; swallow?: undefined }
  | { respond: { status: number; body?: string }; delayMs?: number; swallow?: undefined }
  | { swallow: true; delayMs?: undefined; respond?: undefined }
  | undefined;

export interface FaultProxy {
  url: string;
  /** Every request that reached the proxy, in order. */
  seen: SeenRequest[];
  setRule(rule: FaultRule | undefined): void;
  /**
   * Drops the connections of the requests being held back by a delay (their bodies never reach
   * the server), as when the network goes in the middle of uploads; answers how many.
   */
  cutHeld(): number;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const seen: SeenRequest[] = [];
  let rule: FaultRule | undefined;
  const held = new Set<http.IncomingMessage>();

  const server = http.createServer((req, res) => {
    const request = { method: req.method ?? 'GET', path: req.url ?? '/' };
    seen.push(request);
    const decision = rule?.(request);
    if (decision?.swallow) {
      req.resume(); // the body is taken in full; no answer ever goes back
      return;
    }
    const forward = (): void => {
      if (decision?.respond) {
        req.resume();
        res.writeHead(decision.respond.status, { 'Content-Type': 'application/json' });
        res.end(decision.respond.body ?? '{"detail":"Injected by the test"}');
        return;
      }
      const proxied = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          if (process.env.E2E_PROXY_LOG)
            console.log(`proxy ${request.method} ${request.path} -> ${answer.statusCode}`);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      proxied.on('error', () => res.destroy());
      req.on('error', () => proxied.destroy());
      req.pipe(proxied);
    };
    if (decision?.delayMs) {
      held.add(req);
      setTimeout(() => {
        if (!held.delete(req)) return; // cut meanwhile
        forward();
      }, decision.delayMs);
    } else forward();
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    setRule(next) {
      rule = next;
    },
    cutHeld() {
      const cut = held.size;
      for (const req of held) req.socket.destroy();
      held.clear();
      return cut;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
