// `npm run dev`: the Vite dev server (hot reload) on PORT, the API server behind it on
// API_PORT (default PORT + 1). Vite proxies /api and /assets/data to the API (vite.config.ts),
// so the app is opened at the same http://HOST:PORT as with `npm start`.
import path from 'node:path';
import { createServer } from 'vite';
import { ConfigError, loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';

async function main(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '..', '..');
  const base = loadConfig();
  const apiPort = Number(process.env.API_PORT ?? base.port + 1);
  const config = loadConfig({
    ...process.env,
    PORT: String(apiPort),
    // E-mailed links must open the dev server, not the API port.
    PUBLIC_URL: process.env.PUBLIC_URL || base.publicUrl,
    // Vite serves the pages; the API server serves only /api and /assets.
    WEB_ROOT: path.join(base.dataDir, 'no-web-in-dev'),
  });
  const api = await startServer(config);

  process.env.API_URL = `http://${config.host}:${apiPort}`;
  const ownListeners = new Set(process.listeners('SIGTERM'));
  const vite = await createServer({
    root,
    server: { host: base.host, port: base.port, strictPort: true },
  });
  // Vite exits the process on SIGTERM as soon as its own server has closed, which cut the API
  // server's close (and the embedded database's) short: stop() below closes both, then exits.
  for (const listener of process.listeners('SIGTERM')) {
    if (!ownListeners.has(listener)) process.off('SIGTERM', listener);
  }
  await vite.listen();
  vite.printUrls();

  const stop = (): void => {
    Promise.allSettled([vite.close(), api.close()]).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `Configuration error: ${err.message}` : err);
  process.exit(1);
});
