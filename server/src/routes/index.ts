// Every route area, registered in one place.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { registerAssetRoutes } from './assets/index.ts';
import { registerUploadRoutes } from './uploads/index.ts';
import { registerAccountRoutes } from './auth/index.ts';
import { registerOutputRoutes } from './outputs/index.ts';
import { registerPeopleRoutes } from './people/index.ts';
import { registerVideoRoutes } from './videos/index.ts';

export async function registerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Route areas register here: auth, users, videos, search, assets.
  await registerAccountRoutes(app, ctx);
  await registerVideoRoutes(app, ctx);
  await registerAssetRoutes(app, ctx);
  await registerUploadRoutes(app, ctx);
  await registerPeopleRoutes(app, ctx);
  registerOutputRoutes(app, ctx);
}
