// The local driver's signed upload form: the same shape and algorithm as S3's presigned POST
// (a base64 JSON policy signed with AWS Signature Version 4), keyed with the server's upload
// key, so one client speaks to both STORAGE=local and STORAGE=s3 without knowing which.
import crypto from 'node:crypto';

export const LOCAL_BUCKET = 'local';
const REGION = 'local';
const ACCESS_KEY_ID = 'local';
const ALGORITHM = 'AWS4-HMAC-SHA256';

export type PolicyCondition =
  | Record<string, string>
  | ['eq' | 'starts-with', string, string]
  | ['content-length-range', number, number];

export interface PostPolicyInput {
  key: string;
  expiresAt: Date;
  minBytes: number;
  maxBytes: number;
  /** Fields the form carries verbatim and the policy pins exactly (Content-Type, ...). */
  fields: Record<string, string>;
}

/** A failure as S3 would name it; the receiver answers it as S3's XML error. */
export class PostPolicyError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function hmac(key: Buffer | string, data: string): Buffer {
  return crypto.createHmac('sha256', key).update(data, 'utf8').digest();
}

function signingKey(secret: Buffer, day: string, region: string): Buffer {
  const kDate = hmac(`AWS4${secret.toString('base64')}`, day);
  return hmac(hmac(hmac(kDate, region), 's3'), 'aws4_request');
}

/** 20260102T030405Z */
function amzDate(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** The form fields, in the order the client posts them (the file goes last). */
export function signPostPolicy(
  secret: Buffer,
  input: PostPolicyInput,
  now: Date,
): Record<string, string> {
  const date = amzDate(now);
  const credential = `${ACCESS_KEY_ID}/${date.slice(0, 8)}/${REGION}/s3/aws4_request`;
  const conditions: PolicyCondition[] = [
    { bucket: LOCAL_BUCKET },
    { key: input.key },
    ['content-length-range', input.minBytes, input.maxBytes],
    ...Object.entries(input.fields).map(([name, value]) => ({ [name]: value })),
    { 'x-amz-algorithm': ALGORITHM },
    { 'x-amz-credential': credential },
    { 'x-amz-date': date },
  ];
  const policy = Buffer.from(
    JSON.stringify({ expiration: input.expiresAt.toISOString(), conditions }),
  ).toString('base64');
  return {
    key: input.key,
    ...input.fields,
    'x-amz-algorithm': ALGORITHM,
    'x-amz-credential': credential,
    'x-amz-date': date,
    policy,
    'x-amz-signature': hmac(signingKey(secret, date.slice(0, 8), REGION), policy).toString('hex'),
  };
}

export interface VerifiedForm {
  key: string;
  contentType: string | undefined;
  minBytes: number;
  maxBytes: number;
  successStatus: number;
}

const deny = (message: string): PostPolicyError =>
  new PostPolicyError(403, 'AccessDenied', message);
const NOT_COVERED = new Set(['policy', 'x-amz-signature', 'file']);

/**
 * Checks a received form (field names lower-cased, all fields that came before the file) against
 * its signed policy, as S3 does: signature, expiry, every condition, and no unsigned extra field.
 */
export function verifyPostForm(
  secret: Buffer,
  fields: Map<string, string>,
  now: Date,
): VerifiedForm {
  const policy = fields.get('policy');
  const signature = fields.get('x-amz-signature');
  const credential = fields.get('x-amz-credential');
  if (!policy || !signature || !credential || fields.get('x-amz-algorithm') !== ALGORITHM) {
    throw new PostPolicyError(400, 'InvalidArgument', 'Form is missing its signed policy.');
  }
  const [, day = '', region = ''] = credential.split('/');
  const expected = hmac(signingKey(secret, day, region), policy);
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
    throw new PostPolicyError(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided.',
    );
  }
  let parsed: { expiration?: string; conditions?: PolicyCondition[] };
  try {
    parsed = JSON.parse(Buffer.from(policy, 'base64').toString('utf8')) as typeof parsed;
  } catch {
    throw new PostPolicyError(400, 'InvalidPolicyDocument', 'Invalid Policy: Invalid JSON.');
  }
  const expires = Date.parse(parsed.expiration ?? '');
  if (!Number.isFinite(expires) || expires <= now.getTime()) {
    throw deny('Invalid according to Policy: Policy expired.');
  }
  let minBytes = 0;
  let maxBytes = Number.MAX_SAFE_INTEGER;
  const covered = new Set<string>();
  const field = (name: string): string | undefined =>
    name === 'bucket' ? LOCAL_BUCKET : fields.get(name);
  for (const c of parsed.conditions ?? []) {
    if (Array.isArray(c)) {
      const [op, a, b] = c;
      if (op === 'content-length-range') {
        minBytes = Number(a);
        maxBytes = Number(b);
        continue;
      }
      const name = String(a).replace(/^\$/, '').toLowerCase();
      covered.add(name);
      const value = field(name) ?? '';
      const ok = op === 'eq' ? value === b : value.startsWith(String(b));
      if (!ok) throw deny(`Invalid according to Policy: Policy Condition failed: ${name}`);
    } else {
      for (const [rawName, want] of Object.entries(c)) {
        const name = rawName.toLowerCase();
        covered.add(name);
        if (field(name) !== want) {
          throw deny(`Invalid according to Policy: Policy Condition failed: ${name}`);
        }
      }
    }
  }
  for (const name of fields.keys()) {
    if (!NOT_COVERED.has(name) && !name.startsWith('x-ignore-') && !covered.has(name)) {
      throw deny(`Invalid according to Policy: Extra input fields: ${name}`);
    }
  }
  const key = fields.get('key');
  if (!key || !covered.has('key')) throw deny('Invalid according to Policy: key is not signed.');
  return {
    key,
    contentType: fields.get('content-type'),
    minBytes,
    maxBytes,
    successStatus: Number(fields.get('success_action_status') ?? 204),
  };
}
