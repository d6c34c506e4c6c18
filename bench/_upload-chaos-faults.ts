// The faults of bench/upload-chaos.ts that travel over HTTP, as a rule for the fault proxy
// (tests/e2e/support/fault-proxy.ts): every request of an upload step may be answered 500, 503 or
// 429 (before the server sees it, or after it did its work and the answer was lost), and the body
// of a part or of the signed form may be cut at a random byte. Decisions come from the bench's
// seeded generator, so a seed names a run's fault mix.
import type { FaultRule, SeenRequest } from '../tests/e2e/support/fault-proxy.ts';

/** The queue's calls, by what they do (see src/upload-queue/protocol-client.ts). */
export type UploadStep =
  | 'create'
  | 'people images'
  | 'signed form'
  | 'part'
  | 'multipart start'
  | 'sign parts'
  | 'list parts'
  | 'complete'
  | 'status'
  /** Not an upload step, but every page load and every refused token renews the session. */
  | 'refresh';

export function uploadStep({ method, path }: SeenRequest): UploadStep | undefined {
  const p = path.split('?')[0]!;
  if (method === 'PUT' && p.startsWith('/api/uploads/parts/')) return 'part';
  if (method === 'POST' && p === '/api/uploads/form') return 'signed form';
  if (method === 'POST' && p === '/api/videos') return 'create';
  if (method === 'GET' && p === '/api/refresh') return 'refresh';
  const video = /^\/api\/videos\/[^/]+\/(.+)$/.exec(p)?.[1];
  if (method === 'POST' && video === 'upload-people-images') return 'people images';
  if (method === 'POST' && video === 'multipart') return 'multipart start';
  if (method === 'POST' && video === 'multipart/sign-parts') return 'sign parts';
  if (method === 'GET' && (video === 'multipart/parts' || video === 'multipart/list-parts'))
    return 'list parts';
  if (method === 'POST' && video === 'multipart/complete') return 'complete';
  if (method === 'PUT' && video === 'update-status') return 'status';
  return undefined;
}

export type HttpFault =
  | `${500 | 503 | 429} before the server`
  | `${500 | 503 | 429} after the server`
  | 'cut mid-body'
  | 'refresh answer lost';

export interface FaultOdds {
  /** Chance that an upload step's request is answered 500, 503 or 429 by the proxy. */
  status: number;
  /** Chance that a part's or the form's body is cut at a random byte. */
  cut: number;
  /** Chance that a session refresh's answer is lost after the server rotated the token. */
  refresh: number;
}

export interface ChaosFaults {
  rule: FaultRule;
  /** Injected so far, by kind and by step. */
  counts: Map<HttpFault, number>;
  bySteps: Map<UploadStep, number>;
  /** Faults are injected only while armed (not while the bench signs in or checks). */
  armed: boolean;
}

export function chaosFaults(random: () => number, odds: FaultOdds): ChaosFaults {
  const counts = new Map<HttpFault, number>();
  const bySteps = new Map<UploadStep, number>();
  const count = (fault: HttpFault, step: UploadStep): void => {
    counts.set(fault, (counts.get(fault) ?? 0) + 1);
    bySteps.set(step, (bySteps.get(step) ?? 0) + 1);
  };
  const faults: ChaosFaults = {
    counts,
    bySteps,
    armed: false,
    rule(request) {
      const step = uploadStep(request);
      if (!faults.armed || !step) return undefined;
      if (step === 'refresh') {
        if (random() >= odds.refresh) return undefined;
        count('refresh answer lost', step);
        return { respond: { status: 503 }, afterServer: true };
      }
      const carriesFile = step === 'part' || step === 'signed form';
      if (carriesFile && request.bytes && random() < odds.cut) {
        count('cut mid-body', step);
        return { cutAfterBytes: Math.floor(random() * request.bytes) };
      }
      if (random() >= odds.status) return undefined;
      const status = ([500, 503, 429] as const)[Math.floor(random() * 3)]!;
      const afterServer = random() < 0.5;
      count(`${status} ${afterServer ? 'after' : 'before'} the server`, step);
      const headers: Record<string, string> = status === 500 ? {} : { 'Retry-After': '1' };
      return { respond: { status, headers }, afterServer };
    },
  };
  return faults;
}
