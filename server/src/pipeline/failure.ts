// Why a video failed, in two forms: a code from a short list, which the app words in the user's
// language (never a tool's message), and the operator's detail in failure_reason.
import { PermanentJobError } from '../jobs/errors.ts';
import { ProcessError } from '../media/run.ts';

export const FAILURE_CODES = [
  'not-a-video',
  'too-long',
  'too-large',
  'file-missing',
  'incomplete',
  'undecodable',
  'not-finished',
  // The team has these bytes already (issue 42): not analysed twice; duplicate_of says which.
  'duplicate',
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

/** A video that cannot be analysed, said why; it is not tried again. */
export class VideoFailure extends PermanentJobError {
  constructor(
    readonly code: FailureCode,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
    this.name = 'VideoFailure';
  }
}

/** A media tool's failure, also as it arrives from the media thread (a plain Error by name). */
function causedByTool(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof ProcessError || e.name === 'ProcessError') return true;
  }
  return false;
}

/**
 * The code of a failed analysis: a VideoFailure says its own; a media tool that kept failing on
 * the file (the last attempt included) means its pictures or sound could not be decoded; anything
 * else could not be finished.
 */
export function failureCodeOf(err: unknown): FailureCode {
  if (err instanceof VideoFailure) return err.code;
  return causedByTool(err) ? 'undecodable' : 'not-finished';
}
