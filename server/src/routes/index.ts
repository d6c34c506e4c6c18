// Every route area, registered in one place.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { registerAccountRoutes } from './auth/index.ts';

export async function registerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Route areas register here: auth, users, videos, search, assets.
  await registerAccountRoutes(app, ctx);
}
