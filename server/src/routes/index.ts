// Every route area, registered in one place.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

export async function registerRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {
  // Route areas register here: auth, users, videos, search, assets.
}
