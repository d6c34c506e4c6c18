// Child process for bench/hostile.ts: a real server (fresh PGlite, temp DATA_DIR, the default
// inline worker, as in production) with one signed-in user. Writes {"url", "token"} to
// READY_FILE once it serves; stops on SIGTERM.
import fs from 'node:fs';
import { startTestServer } from '../tests/support/server.ts';

const server = await startTestServer({ LOG_LEVEL: 'error' });
await server.createUser({ email: 'eve@example.com', password: 'password1' });
const token = await server.login('eve@example.com', 'password1');
fs.writeFileSync(process.env.READY_FILE!, JSON.stringify({ url: server.url, token }));
process.on('SIGTERM', () => {
  void server.close().finally(() => process.exit(0));
});
