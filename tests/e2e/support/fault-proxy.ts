// A reverse proxy between the browser and the server under test that can slow requests down,
// answer in the server's place, or cut connections. It sees the service worker's requests too (a
// page.route would not), and keeps the Host header so the server signs upload URLs for the
// proxy's origin. Used by the upload journeys and by the upload benches (bench/upload*.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  /** The body's declared size (Content-Length), when the client sent one. */
  bytes?: number;
  /** When it reached the proxy (epoch ms). */
  at: number;
}

/** An answer the proxy gives in the server's place. */
export interface InjectedAnswer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

/**
 * What to do with one request: pass it on (maybe later); answer it here, before the server sees
 * it or (`afterServer`) once the server has handled it and its answer is thrown away, as when a
 * connection drops on the way back; swallow it (read its body and never answer, as over a
 * half-open connection); or pass on the first `cutAfterBytes` bytes of its body and then drop the
 * connection both ways, as when the network goes in the middle of an upload.
 */
export type FaultRule = (request: SeenRequest) =>
  | { delayMs?: number; respond?: undefined; swallow?: undefined; cutAfterBytes?: undefined }
  | {
      respond: InjectedAnswer;
      afterServer?: boolean;
      delayMs?: number;
      swallow?: undefined;
      cutAfterBytes?: undefined;
    }
  | { swallow: true; delayMs?: undefined; respond?: undefined; cutAfterBytes?: undefined }
  | { cutAfterBytes: number; delayMs?: undefined; respond?: undefined; swallow?: undefined }
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
  /** The requests passed on to the server and not answered yet. */
  inFlight(): SeenRequest[];
  /** Drops every open connection both ways (a server going down); answers how many. */
  cutAll(): number;
  close(): Promise<void>;
}

function answer(res: http.ServerResponse, injected: InjectedAnswer): void {
  res.writeHead(injected.status, { 'Content-Type': 'application/json', ...injected.headers });
  res.end(injected.body ?? '{"detail":"Injected by the test"}');
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const seen: SeenRequest[] = [];
  let rule: FaultRule | undefined;
  const held = new Set<http.IncomingMessage>();
  const cutHeld = (): number => {
    const cut = held.size;
    for (const req of held) req.socket.destroy();
    held.clear();
    return cut;
  };
  /** Requests on their way to the server, with the request that carries them. */
  const open = new Map<
    http.IncomingMessage,
    { request: SeenRequest; proxied: http.ClientRequest }
  >();

  const server = http.createServer((req, res) => {
    const length = Number(req.headers['content-length']);
    const request: SeenRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      at: Date.now(),
    };
    if (Number.isFinite(length) && req.headers['content-length'] !== undefined)
      request.bytes = length;
    seen.push(request);
    const decision = rule?.(request);
    if (decision?.swallow) {
      req.resume(); // the body is taken in full; no answer ever goes back
      return;
    }
    const forward = (): void => {
      if (decision?.respond && !decision.afterServer) {
        req.resume();
        answer(res, decision.respond);
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
        (reply) => {
          if (process.env.E2E_PROXY_LOG)
            console.log(`proxy ${request.method} ${request.path} -> ${reply.statusCode}`);
          if (decision?.respond) {
            // The server did its part; its answer is lost and ours goes back instead.
            reply.resume();
            reply.once('end', () => answer(res, decision.respond));
            return;
          }
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
        },
      );
      open.set(req, { request, proxied });
      res.once('close', () => open.delete(req));
      proxied.on('error', () => res.destroy());
      req.on('error', () => proxied.destroy());
      if (decision?.cutAfterBytes === undefined) {
        req.pipe(proxied);
        return;
      }
      let left = decision.cutAfterBytes;
      req.on('data', (chunk: Buffer) => {
        if (left < 0) return; // cut already
        if (left > 0) proxied.write(chunk.subarray(0, left));
        left -= chunk.length;
        if (left <= 0) {
          left = -1;
          proxied.destroy();
          req.socket.destroy();
        }
      });
      req.on('end', () => proxied.end());
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
    cutHeld,
    inFlight: () => [...open.values()].map((o) => o.request),
    cutAll() {
      const cut = open.size + held.size;
      for (const [req, { proxied }] of open) {
        proxied.destroy();
        req.socket.destroy();
      }
      open.clear();
      cutHeld();
      server.closeAllConnections();
      return cut;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
