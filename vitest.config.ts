import { defineConfig, type Plugin } from 'vitest/config';

// The build splits English messages (vite.config.ts); tests read the whole file either way.
const deferredMessages: Plugin = {
  name: 'deferred-messages',
  enforce: 'pre',
  transform(code, id) {
    if (!/[\\/]lang[\\/]en\.json\?(deferred|ns=[a-z,]+)$/.test(id)) return null;
    return { code: `export default ${code};`, map: null };
  },
};

export default defineConfig({
  test: {
    // Vitest's default on 2 cores is one file at a time. Most integration files wait on child
    // processes, ffmpeg, Chromium-free HTTP and timers rather than compute, so two at once nearly
    // halves the suite and keeps CI well under its 30 minutes.
    maxWorkers: 2,
    projects: [
      {
        plugins: [deferredMessages],
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/testing/setup.ts'],
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'tests/integration/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
    ],
  },
});
