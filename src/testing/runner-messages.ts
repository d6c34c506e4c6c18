// Speaks for the upload runner in screen tests that leave it out (the idle queue host): what it
// would publish about a job, on the channel every page listens to.
import { act } from '@testing-library/react';
import type { JobMessage } from '../upload-queue/job-types';
import { openQueueChannel } from '../upload-queue/progress-channel';
import type { ChannelMessage } from '../upload-queue/queue-host';

export async function runnerSays(message: Omit<JobMessage, 'type'>): Promise<void> {
  await act(async () => {
    const channel = openQueueChannel();
    channel.postMessage({ type: 'job', ...message } satisfies ChannelMessage);
    channel.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
}
