// Trailers and reports: the make-trailer / make-report requests and the report page.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerMakeOutputRoutes } from './make-output.ts';
import { registerReportPage } from './report-page.ts';

export function registerOutputRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerMakeOutputRoutes(app, ctx);
  registerReportPage(app, ctx);
}
