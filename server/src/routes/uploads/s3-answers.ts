// Answers of the local driver's S3-compatible endpoints, shaped as S3 shapes them so the client
// handles both drivers with one code path.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { closeAfterAnswer } from './unread-body.ts';

function xmlEscape(value: string): string {
  return value.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );
}

export function s3ErrorXml(code: string, message: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${xmlEscape(code)}</Code><Message>${xmlEscape(message)}</Message></Error>`
  );
}

export function postResponseXml(
  location: string,
  bucket: string,
  key: string,
  etag: string,
): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<PostResponse><Location>${xmlEscape(location)}</Location><Bucket>${xmlEscape(bucket)}</Bucket>` +
    `<Key>${xmlEscape(key)}</Key><ETag>${xmlEscape(etag)}</ETag></PostResponse>`
  );
}

/**
 * Sends an S3 error. When the body was not read to its end (a refused 5 GB upload), the
 * connection closes after the answer instead of swallowing the rest of the file.
 */
export function sendS3Error(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
): FastifyReply {
  closeAfterAnswer(request, reply);
  return reply.status(status).type('application/xml').send(s3ErrorXml(code, message));
}
