// The request log (through the one pino logger, lifecycle/logger.ts, which also redacts): one
// line per request when it is answered, with its method, URL, status and time (Fastify's own pair
// of lines, "incoming" and "completed", cost a tenth of the server thread's time under load;
// issue 14).
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * The access log: one line per answered request, with the request in it, instead of Fastify's
 * "incoming request" and "request completed" pair.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
