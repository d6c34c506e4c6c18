// Every route the running server registered, read from Fastify's own route tree, so tests that
// must cover "every call" also cover the calls added after they were written.
import type { FastifyInstance } from 'fastify';

export interface ApiRoute {
  /** The pattern as registered, e.g. /api/videos/:id/make-report. */
  path: string;
  /** Methods without HEAD (Fastify adds it to every GET). */
  methods: string[];
}

/** The /api routes, parsed from printRoutes({ commonPrefix: false }). */
export function apiRoutes(app: FastifyInstance): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    // "│   ├── /:id (GET, HEAD, DELETE)": four characters of indentation per level.
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    parents.length = depth;
    const path = parents.join('') + match[2]!;
    parents.push(match[2]!);
    if (match[3] && path.startsWith('/api/')) {
      routes.push({ path, methods: match[3].split(', ').filter((m) => m !== 'HEAD') });
    }
  }
  if (routes.length < 10) throw new Error(`could not read the route tree:\n${app.printRoutes()}`);
  return routes;
}

/** A concrete URL path for a pattern: every :param becomes `value`. */
export function fillParams(path: string, value: string): string {
  return path.replace(/:[A-Za-z]+/g, encodeURIComponent(value));
}
