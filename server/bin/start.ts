// `npm start`: build the web app when needed (and possible), then one process serves PWA, API
// and assets.
import path from 'node:path';
import { ConfigError, loadConfig } from '../src/config.ts';
import { stopOnSignals } from '../src/lifecycle/shutdown.ts';
import { startServer } from '../src/server.ts';
import { prepareWebApp, WebBuildMissingError } from '../src/web-build.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const root = path.resolve(import.meta.dirname, '..', '..');
  if (process.env.SKIP_WEB_BUILD !== '1') prepareWebApp(root, config.webRoot, console.log);
  const running = await startServer(config);
  stopOnSignals(running, running.ctx.log.child({ component: 'shutdown' }));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(`Configuration error: ${err.message}`);
  else if (err instanceof WebBuildMissingError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
