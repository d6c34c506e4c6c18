// `npm start`: build the web app when needed, then one process serves PWA, API and assets.
import path from 'node:path';
import { ConfigError, loadConfig } from '../src/config.ts';
import { stopOnSignals } from '../src/lifecycle/shutdown.ts';
import { startServer } from '../src/server.ts';
import { buildWebApp, webBuildIsStale } from '../src/web-build.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const root = path.resolve(import.meta.dirname, '..', '..');
  if (process.env.SKIP_WEB_BUILD !== '1' && webBuildIsStale(root, config.webRoot)) {
    console.log('Building the web app…');
    buildWebApp(root, config.webRoot);
  }
  const running = await startServer(config);
  stopOnSignals(running, (level, msg, fields) => running.app.log[level](fields ?? {}, msg));
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `Configuration error: ${err.message}` : err);
  process.exit(1);
});
