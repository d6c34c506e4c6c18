// A real local S3 (s3rver) on a free port in a temp directory, for STORAGE=s3 tests.
// s3rver lacks ListParts and AbortMultipartUpload; a small middleware in front of it answers
// them from s3rver's own upload folder, speaking S3's protocol, so the whole multipart flow runs.
// It does not enforce POST policy conditions: policy checks are tested on the local driver.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import S3rver from '@20minutes/s3rver';
import { startTestServer, type TestServer } from './server.ts';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  dir: string;
  /** The env a test server needs to use this bucket. */
  env: Record<string, string>;
  close(): Promise<void>;
}

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  status: number;
  type: string;
  body: unknown;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

function uploadsDir(root: string, bucket: string): string {
  return path.join(root, bucket, '._S3rver_uploads');
}

/** ListParts and AbortMultipartUpload over s3rver's filesystem layout (<uploadId>/<n>). */
function multipartExtras(root: string): Middleware {
  return async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    const bucket = ctx.path.split('/')[1] ?? '';
    const isList = ctx.method === 'GET' && uploadId && !ctx.query.partNumber;
    const isAbort = ctx.method === 'DELETE' && uploadId;
    if (!isList && !isAbort) return next();
    const dir = path.join(uploadsDir(root, bucket), path.basename(uploadId));
    if (!fs.existsSync(dir)) {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body = '<Error><Code>NoSuchUpload</Code><Message>no such upload</Message></Error>';
      return;
    }
    if (isAbort) {
      await fs.promises.rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    const parts = fs
      .readdirSync(dir)
      .filter((n) => /^\d+$/.test(n))
      .map(Number)
      .sort((a, b) => a - b)
      .map((n) => {
        const file = path.join(dir, String(n));
        const md5 = crypto.createHash('md5').update(fs.readFileSync(file)).digest('hex');
        return `<Part><PartNumber>${n}</PartNumber><ETag>"${md5}"</ETag><Size>${fs.statSync(file).size}</Size></Part>`;
      });
    ctx.status = 200;
    ctx.type = 'application/xml';
    ctx.body =
      `<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult><Bucket>${bucket}</Bucket>` +
      `<UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`;
  };
}

export async function startTestS3(bucket = 'test-bucket'): Promise<TestS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    // The SDK signs bucket-level paths with a trailing slash that s3rver strips.
    allowMismatchedSignatures: true,
    configureBuckets: [{ name: bucket }],
  });
  (server as unknown as { middleware: Middleware[] }).middleware.unshift(multipartExtras(dir));
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    dir,
    env: {
      STORAGE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
    },
    async close() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * s3rver and a server storing in it (STORAGE=s3, no worker), with one signed-in user; close()
 * stops the server, then s3rver.
 */
export async function startServerOnS3(): Promise<{
  s3: TestS3;
  server: TestServer;
  token: string;
  close: () => Promise<void>;
}> {
  const s3 = await startTestS3();
  // s3rver's built-in account; the SDK reads the usual AWS variables.
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const server = await startTestServer({ ...s3.env, WORKER: 'off' });
  await server.createUser({ email: 'a@example.com', password: 'password1' });
  return {
    s3,
    server,
    token: await server.login('a@example.com', 'password1'),
    async close() {
      await server.close();
      await s3.close();
    },
  };
}
