// `npm test` runs the end-to-end tests with Debian's Chromium: without a browser that step fails
// loudly (non-zero, saying what to install); it never skips and never downloads one.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');

describe('npm run test:e2e without Chromium', () => {
  it('fails with a message naming the missing browser', { timeout: 120_000 }, () => {
    const res = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'tests/e2e/run.ts', 'no-spec-matches-this'],
      {
        cwd: root,
        env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' },
        encoding: 'utf8',
        timeout: 110_000,
      },
    );
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('END-TO-END TESTS CANNOT RUN');
    expect(res.stderr).toContain('Chromium not found at /nonexistent/chromium');
    expect(res.stderr).toContain('apt-get install -y chromium');
    // It stopped before building the web app or starting any spec.
    expect(res.stdout).not.toContain('Building the web app');
  });
});
