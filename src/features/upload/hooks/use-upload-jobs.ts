// The signed-in user's queued uploads, live: listed from the queue's IndexedDB, then kept up to
// date by its BroadcastChannel messages (from this page, other tabs or the service worker).
import { useEffect, useRef, useState } from 'react';
import type { JobMessage, JobSummary } from '../../../upload-queue/queue-client';
import type * as QueueClientModule from '../../../upload-queue/queue-client';

type QueueClient = typeof QueueClientModule;

export interface UploadJobsOptions {
  /** A job reached its last step: the server now has the video in progress. */
  onDone?: (jobId: string) => void;
  /** A job failed while this page watched (not one that had failed before it opened). */
  onFailed?: (job: JobSummary) => void;
}

/** Finished and cancelled uploads leave the list; the server's list shows the video. */
export function isVisibleJob(job: Pick<JobMessage, 'state'>): boolean {
  return job.state !== 'done' && job.state !== 'cancelled';
}

const listAll = (jobs: JobSummary[]): JobSummary[] => jobs;

export function useUploadJobs(options: UploadJobsOptions = {}): JobSummary[] {
  return useUploadJobsView(listAll, [], options);
}

/**
 * What `view` makes of the visible jobs, kept up to date. The component renders again only when
 * the view changes (Object.is): progress arrives a few times a second, and a view that does not
 * depend on it (say the ids of the videos being uploaded) leaves its component alone.
 */
export function useUploadJobsView<T>(
  view: (jobs: JobSummary[]) => T,
  initial: T,
  options: UploadJobsOptions = {},
): T {
  const [value, setValue] = useState<T>(initial);
  const callbacks = useRef(options);
  callbacks.current = options;
  const viewRef = useRef(view);
  viewRef.current = view;

  useEffect(() => {
    let stopped = false;
    let unsubscribe: (() => void) | undefined;
    const known = new Map<string, JobSummary>();

    const publish = (): void => {
      if (!stopped) setValue(viewRef.current([...known.values()].filter(isVisibleJob)));
    };

    void import('../../../upload-queue/queue-client').then(async (client: QueueClient) => {
      if (stopped) return;
      const relist = async (): Promise<void> => {
        const listed = await client.listJobs();
        // A job the runner removed (finished) is gone here too, even if its last message was missed.
        for (const id of known.keys())
          if (!listed.some((job) => job.jobId === id)) known.delete(id);
        for (const job of listed) known.set(job.jobId, job);
        publish();
      };
      unsubscribe = client.subscribe((message) => {
        const before = known.get(message.jobId);
        if (!before) {
          // Done before this page knew it: the runner may already have removed its record.
          if (message.state === 'done') {
            callbacks.current.onDone?.(message.jobId);
            return;
          }
          // A job new to this page: its file name comes from the store.
          void relist().then(() => {
            const job = known.get(message.jobId);
            if (job?.state === 'done') callbacks.current.onDone?.(job.jobId);
            if (job?.state === 'failed') callbacks.current.onFailed?.(job);
          });
          return;
        }
        const next: JobSummary = { ...before, ...message };
        if (message.part === undefined) delete next.part;
        if (message.error === undefined) delete next.error;
        known.set(message.jobId, next);
        if (before.state !== 'done' && next.state === 'done')
          callbacks.current.onDone?.(next.jobId);
        if (before.state !== 'failed' && next.state === 'failed')
          callbacks.current.onFailed?.(next);
        publish();
      });
      await relist();
    });

    return () => {
      stopped = true;
      unsubscribe?.();
    };
  }, []);

  return value;
}
