import { describe, expect, it } from 'vitest';
import type { JobMessage } from './job-types.ts';
import { createThrottledPublisher, type Timers } from './progress-channel.ts';

function fakeTimers(): Timers & { advance(ms: number): void } {
  let now = 0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimeout(id) {
      timers = timers.filter((t) => t.id !== id);
    },
    advance(ms) {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers = timers.filter((t) => t.at > now);
      due.forEach((t) => t.fn());
    },
  };
}

const msg = (
  progress: number,
  state: JobMessage['state'] = 'transferring',
  jobId = 'a',
): JobMessage => ({
  type: 'job',
  jobId,
  state,
  progress,
});

describe('progress throttling', () => {
  it('sends at most one progress message per interval and always the latest one', () => {
    const timers = fakeTimers();
    const sent: JobMessage[] = [];
    const publisher = createThrottledPublisher((m) => sent.push(m), 250, timers);
    publisher.publish(msg(0.1));
    for (let i = 2; i <= 9; i += 1) {
      timers.advance(20);
      publisher.publish(msg(i / 10));
    }
    expect(sent.map((m) => m.progress)).toEqual([0.1]);
    timers.advance(250);
    expect(sent.map((m) => m.progress)).toEqual([0.1, 0.9]);
  });

  it('sends state changes at once, and keeps jobs apart', () => {
    const timers = fakeTimers();
    const sent: JobMessage[] = [];
    const publisher = createThrottledPublisher((m) => sent.push(m), 250, timers);
    publisher.publish(msg(0.5));
    publisher.publish(msg(0.6));
    publisher.publish(msg(0.2, 'transferring', 'b'));
    publisher.publish(msg(1, 'completing'));
    expect(sent.map((m) => `${m.jobId}:${m.state}:${m.progress}`)).toEqual([
      'a:transferring:0.5',
      'b:transferring:0.2',
      'a:completing:1',
    ]);
    timers.advance(1_000);
    expect(sent).toHaveLength(3); // the superseded 0.6 is never sent after the state change
  });

  it('flush delivers what is pending', () => {
    const timers = fakeTimers();
    const sent: JobMessage[] = [];
    const publisher = createThrottledPublisher((m) => sent.push(m), 250, timers);
    publisher.publish(msg(0.1));
    publisher.publish(msg(0.3));
    publisher.flush();
    expect(sent.map((m) => m.progress)).toEqual([0.1, 0.3]);
  });
});
