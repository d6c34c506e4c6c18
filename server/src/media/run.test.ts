// Media tools run below the server's CPU priority (run.ts), so an analysis beside the requests
// leaves them the cores.
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { MEDIA_NICENESS, runProcess } from './run.ts';

describe('runProcess', () => {
  it.runIf(process.platform === 'linux')('runs a tool at a lower CPU priority', async () => {
    // The shell waits a moment, then reads its own niceness (field 19 of /proc/<pid>/stat).
    const { stdout } = await runProcess('sh', ['-c', 'sleep 0.5; cut -d" " -f19 /proc/$$/stat']);
    expect(Number(stdout.toString().trim())).toBe(Math.max(os.getPriority(), MEDIA_NICENESS));
  });
});
