// The list hooks over the queue: the video list (which renders with the ids of videos being
// uploaded) does not render again for progress messages, and a done upload refreshes the list
// even when the runner removed its record before this page read it.
import { act, cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobMessage, JobSummary } from '../../../upload-queue/queue-client';
import { useActiveUploadVideoIds } from './use-active-upload-video-ids';
import { useUploadJobs } from './use-upload-jobs';

const queue = vi.hoisted(() => ({
  jobs: [] as JobSummary[],
  listeners: new Set<(message: JobMessage) => void>(),
}));

vi.mock('../../../upload-queue/queue-client', () => ({
  listJobs: () => Promise.resolve(queue.jobs),
  subscribe: (listener: (message: JobMessage) => void) => {
    queue.listeners.add(listener);
    return () => queue.listeners.delete(listener);
  },
}));

const job = (over: Partial<JobSummary>): JobSummary => ({
  type: 'job',
  jobId: 'j1',
  state: 'transferring',
  progress: 0,
  videoId: 'v1',
  filename: 'pier.mp4',
  size: 100,
  createdAt: 1,
  ...over,
});

async function send(message: Partial<JobMessage>): Promise<void> {
  await act(async () => {
    for (const listener of queue.listeners) listener(job(message));
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

beforeEach(() => {
  queue.jobs = [job({})];
  queue.listeners.clear();
});
afterEach(cleanup);

describe('upload list hooks', () => {
  it('renders the video list again only when the set of uploading videos changes', async () => {
    const seen: string[][] = [];
    function List() {
      seen.push([...useActiveUploadVideoIds()]);
      return null;
    }
    render(<List />);
    await waitFor(() => expect(seen.at(-1)).toEqual(['v1']));
    await send({ progress: 0.1 });
    const before = seen.length;
    for (const progress of [0.2, 0.3, 0.4, 0.5]) await send({ progress });
    expect(seen.length).toBe(before);
    await send({ state: 'done', progress: 1 });
    expect(seen.at(-1)).toEqual([]);
  });

  it('calls onDone for an upload that finished before the page read it', async () => {
    queue.jobs = [];
    const onDone = vi.fn();
    function Rows() {
      useUploadJobs({ onDone });
      return null;
    }
    render(<Rows />);
    await waitFor(() => expect(queue.listeners.size).toBe(1));
    await send({ jobId: 'j2', state: 'done', progress: 1 });
    expect(onDone).toHaveBeenCalledWith('j2');
  });
});
