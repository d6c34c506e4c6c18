import { describe, expect, it } from 'vitest';
import type { UploadJob } from './job-types.ts';
import { isUploadInFlight, uploadsInFlight, whenUploadsIdle } from './upload-activity.ts';

type Job = Pick<UploadJob, 'phase' | 'hold' | 'cancelPending'>;

describe('upload activity for the update prompt', () => {
  it('counts runnable unfinished jobs and owed cancels as in flight', () => {
    expect(isUploadInFlight({ phase: 'transferring', hold: 'active' })).toBe(true);
    expect(isUploadInFlight({ phase: 'queued', hold: 'active' })).toBe(true);
    expect(isUploadInFlight({ phase: 'done', hold: 'active' })).toBe(false);
    expect(isUploadInFlight({ phase: 'transferring', hold: 'offline' })).toBe(false);
    expect(isUploadInFlight({ phase: 'transferring', hold: 'failed' })).toBe(false);
    expect(isUploadInFlight({ phase: 'created', hold: 'cancelled', cancelPending: true })).toBe(
      true,
    );
    expect(uploadsInFlight([])).toBe(false);
  });

  it('waits until the last upload has finished', async () => {
    const states: Job[][] = [
      [{ phase: 'transferring', hold: 'active' }],
      [{ phase: 'completing', hold: 'active' }],
      [{ phase: 'done', hold: 'active' }],
    ];
    let looks = 0;
    await whenUploadsIdle(async () => states[Math.min(looks++, states.length - 1)]!, 1);
    expect(looks).toBe(3);
  });
});
