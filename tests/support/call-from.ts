// One JSON call from a chosen loopback address: the whole of 127/8 reaches a server bound to
// 127.0.0.1, so tests can be several clients, as the server's per-address throttles see them.
import http from 'node:http';

export interface AddressedAnswer {
  status: number;
  retryAfter: string | undefined;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
}

export function callFrom(
  server: { url: string },
  localAddress: string,
  method: string,
  urlPath: string,
  opts: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<AddressedAnswer> {
  const { port } = new URL(server.url);
  const payload = opts.body === undefined ? '' : JSON.stringify(opts.body);
  const headers: Record<string, string | number> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, localAddress, method, path: urlPath, headers },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'] as string | undefined,
            body: text ? JSON.parse(text) : null,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
