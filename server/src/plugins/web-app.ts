// Serves the built PWA: hashed assets cached for a year, the service worker never cached, and
// index.html for every client-side route.
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const API_PREFIXES = ['/api/', '/assets/data/'];

export async function registerWebApp(app: FastifyInstance, webRoot: string): Promise<void> {
  const index = path.join(webRoot, 'index.html');
  if (!fs.existsSync(index)) {
    app.log.warn({ webRoot }, 'web app not built: only the API is served');
    return;
  }
  await app.register(fastifyStatic, {
    root: webRoot,
    wildcard: false,
    index: false,
    // .br and .gz files are written at build time (vite.config.ts).
    preCompressed: true,
    setHeaders(reply, filePath) {
      const rel = path.relative(webRoot, filePath);
      if (rel.startsWith(`assets${path.sep}`)) {
        reply.header('Cache-Control', 'public, max-age=31536000, immutable');
      } else {
        reply.header('Cache-Control', 'no-cache');
      }
    },
  });
  // A catch-all GET route rather than a second not-found handler: the errors plugin owns that
  // one (Fastify allows one per prefix) and still answers every other method and path.
  // HEAD follows GET (Fastify exposes HEAD routes for GET ones).
  app.get('/*', (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((p) => url.startsWith(p)) || url === '/api';
    if (isApi || path.extname(url) !== '') {
      return reply.status(404).send({ detail: `Not found: ${request.method} ${url}` });
    }
    reply.header('Cache-Control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
