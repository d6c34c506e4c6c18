// The database queue serves the oldest request first, puts analysis jobs behind requests of the
// same moment, and sheds what cannot start within the budget (real overload: tests/integration/
// load-shedding.test.ts).
import { describe, expect, it } from 'vitest';
import { asRequest, ServerBusyError, Gate, JOB_HANDICAP_MS, QUEUE_BUDGET_MS } from './gate.ts';

/** Runs fn as a request that arrived at `arrivedAt` (performance.now() time). */
function asRequestAt<T>(arrivedAt: number, fn: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    asRequest({ arrivedAt, open: true }, () => {
      fn().then(resolve, reject);
    });
  });
}

/** A gate held by one running statement until release() is called. */
async function heldGate(): Promise<{ gate: Gate; release: () => void }> {
  const gate = new Gate(1);
  const release = await new Promise<() => void>((running) => {
    void gate.run(() => new Promise<void>((done) => running(done)));
  });
  return { gate, release };
}

describe('database gate', () => {
  it('serves the statements of the oldest request first, whatever order they came in', async () => {
    const { gate, release } = await heldGate();
    const order: string[] = [];
    const now = performance.now();
    const statement = (name: string) => () => {
      order.push(name);
      return Promise.resolve();
    };
    const young = asRequestAt(now, () => gate.run(statement('young')));
    const old = asRequestAt(now - 300, () => gate.run(statement('old')));
    const middle = asRequestAt(now - 100, () => gate.run(statement('middle')));
    release();
    await Promise.all([young, old, middle]);
    expect(order).toEqual(['old', 'middle', 'young']);
  });

  it('puts a job statement behind a request that came up to the handicap later', async () => {
    const { gate, release } = await heldGate();
    const order: string[] = [];
    const job = gate.run(async () => void order.push('job'));
    const soon = performance.now() + JOB_HANDICAP_MS / 2;
    const request = asRequestAt(soon, () => gate.run(async () => void order.push('request')));
    release();
    await Promise.all([job, request]);
    expect(order).toEqual(['request', 'job']);
  });

  it('answers busy at once for a request whose budget is already spent, and runs jobs anyway', async () => {
    const { gate, release } = await heldGate();
    const late = performance.now() - QUEUE_BUDGET_MS - 1;
    const shed = asRequestAt(late, () => gate.run(() => Promise.resolve('ran')));
    await expect(shed).rejects.toBeInstanceOf(ServerBusyError);
    expect(gate.queued).toBe(0);
    const job = gate.run(() => Promise.resolve('job ran'));
    release();
    await expect(job).resolves.toBe('job ran');
  });

  it('treats work a request left running after its answer as a job: it is never shed', async () => {
    const { gate, release } = await heldGate();
    const late = performance.now() - QUEUE_BUDGET_MS - 1;
    const leftOver = new Promise<string>((resolve, reject) => {
      asRequest({ arrivedAt: late, open: false }, () => {
        gate.run(() => Promise.resolve('sent')).then(resolve, reject);
      });
    });
    release();
    await expect(leftOver).resolves.toBe('sent');
  });

  it('never sheds a request once its first statement ran: it is refused whole or served whole', async () => {
    const gate = new Gate(1);
    const arrived = performance.now();
    let release = (): void => undefined;
    const request = asRequestAt(arrived, async () => {
      await gate.run(() => Promise.resolve('rotated')); // its first statement changes something
      // Meanwhile a job holds the database past the request's budget...
      const held = new Promise<void>((done) => (release = done));
      void gate.run(() => held);
      setTimeout(() => release(), QUEUE_BUDGET_MS + 200);
      // ...and its second statement still runs, so the change is answered.
      return gate.run(() => Promise.resolve('answered'));
    });
    await expect(request).resolves.toBe('answered');
  });
});
