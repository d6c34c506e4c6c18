// Calls to a worker thread that answer by id: each message carries an id, each answer names it.
// While calls are pending the thread keeps the process alive; idle, it does not (a module that
// holds one open must not keep a finished process running). If the thread dies, its pending
// calls fail.
import type { TransferListItem, Worker } from 'node:worker_threads';

/** What a thread answers: the call's id and its result, or the error it raised. */
export type ThreadAnswer<R> =
  { id: number; ok: true; result: R } | { id: number; ok: false; error: SerializedError };

export interface SerializedError {
  name: string;
  message: string;
  /** Own enumerable fields (a database error's code, detail, constraint ...). */
  fields: Record<string, unknown>;
}

export function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(err)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value))
      fields[key] = value;
  }
  return { name: err.name, message: err.message, fields };
}

export function deserializeError(e: SerializedError): Error {
  const err = Object.assign(new Error(e.message), e.fields);
  err.name = e.name;
  return err;
}

export interface ThreadCalls {
  call<R>(message: object, transfer?: readonly TransferListItem[]): Promise<R>;
}

export function threadCalls(worker: Worker, name: string): ThreadCalls {
  const pending = new Map<number, { resolve(result: unknown): void; reject(err: Error): void }>();
  let nextId = 1;
  let dead: Error | undefined;
  const failAll = (err: Error): void => {
    dead = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.unref();
  worker.on('message', (answer: ThreadAnswer<unknown>) => {
    const p = pending.get(answer.id);
    if (!p) return;
    pending.delete(answer.id);
    if (pending.size === 0) worker.unref();
    if (answer.ok) p.resolve(answer.result);
    else p.reject(deserializeError(answer.error));
  });
  worker.on('error', (err) => failAll(err));
  worker.on('exit', (code) => failAll(new Error(`${name} thread exited (${code})`)));
  return {
    call<R>(message: object, transfer: readonly TransferListItem[] = []): Promise<R> {
      if (dead) return Promise.reject(dead);
      const id = nextId++;
      return new Promise<R>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
        worker.ref();
        worker.postMessage({ ...message, id }, transfer);
      });
    },
  };
}

/** The thread's side: answers each message with `handle`'s result or error, by the message's id. */
export function answerCalls<M extends { id: number }>(
  port: { postMessage(answer: unknown): void; on(event: 'message', fn: (m: M) => void): void },
  handle: (message: M) => Promise<unknown>,
): void {
  port.on('message', (message) => {
    handle(message).then(
      (result) => port.postMessage({ id: message.id, ok: true, result }),
      (err: unknown) => port.postMessage({ id: message.id, ok: false, error: serializeError(err) }),
    );
  });
}
