// Media tools run below the server's CPU priority (run.ts), so an analysis beside the requests
// leaves them the cores; their output reaches a caller in another thread whole.
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { closeMediaThread } from './media-thread.ts';
import { MEDIA_NICENESS, runProcess } from './run.ts';

describe('runProcess', () => {
  it.runIf(process.platform === 'linux')('runs a tool at a lower CPU priority', async () => {
    // The shell waits a moment, then reads its own niceness (field 19 of /proc/<pid>/stat).
    const { stdout } = await runProcess('sh', ['-c', 'sleep 0.5; cut -d" " -f19 /proc/$$/stat']);
    expect(Number(stdout.toString().trim())).toBe(Math.max(os.getPriority(), MEDIA_NICENESS));
  });

  it('gives a slow reader every byte, up to the last chunk before the tool ended', async () => {
    // The media thread relays each chunk and waits for its acknowledgement, with the tool's
    // stdout paused. Here the tool writes its second chunk and ends while the reader still holds
    // the first: the run must not answer (and close the chunks' port) before the reader has had
    // the second (the analysis pass lost its last 7 of 400 frames on a loaded CI machine).
    // Node resumes the paused stream when the tool exits: the second chunk must still wait for
    // the reader's work on the first.
    let received = '';
    let reading = 0;
    let overlapped = false;
    try {
      await runProcess('sh', ['-c', 'printf first; sleep 0.1; printf second'], {
        async onStdout(chunk) {
          overlapped ||= reading > 0;
          reading++;
          received += chunk.toString();
          await sleep(400);
          reading--;
        },
      });
      expect(received).toBe('firstsecond');
      expect(overlapped).toBe(false);
    } finally {
      await closeMediaThread();
    }
  });

  it("fails with the reader's error when the reader fails after the tool ended", async () => {
    const mine = new Error('cannot keep this');
    const read = runProcess('head', ['-c', '300000', '/dev/zero'], {
      async onStdout() {
        await sleep(50);
        throw mine;
      },
    });
    await expect(read).rejects.toBe(mine);
    await closeMediaThread();
  });
});
