// A refusal answered before the request's body was read to its end (a 5 GB upload, a set of
// pictures over its budget): the connection closes after the answer instead of swallowing the
// rest of the body.
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Closes the connection once the answer is sent, when the body was not read to its end. */
export function closeAfterAnswer(request: FastifyRequest, reply: FastifyReply): void {
  if (request.raw.readableEnded) return;
  reply.header('connection', 'close');
  reply.raw.once('finish', () => {
    // A moment for the answer to reach the client before the socket goes.
    const timer = setTimeout(() => request.raw.socket?.destroy(), 2000);
    timer.unref();
    request.raw.resume();
  });
}
