// PGlite is one process's database: two processes opening the same folder corrupt it. A pid file
// beside the folder keeps a second process (the admin command while the server runs, a second
// server) out with a clear message; a lock left by a killed process is taken over.
import fs from 'node:fs';

export class EmbeddedDatabaseBusyError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock of dataDir for this process; answers the function that gives it back. */
export function lockEmbeddedDatabase(dataDir: string): () => void {
  const file = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => {
        if (fs.readFileSync(file, 'utf8').trim() === String(process.pid))
          fs.rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(fs.readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
        throw new EmbeddedDatabaseBusyError(
          `The embedded database in ${dataDir} is in use by process ${holder} (a running server). ` +
            'Stop it first, or use DATABASE_URL with PostgreSQL to work while servers run.',
        );
      }
      fs.rmSync(file, { force: true }); // left behind by a process that no longer runs
    }
  }
  throw new EmbeddedDatabaseBusyError(`Could not lock the embedded database in ${dataDir}`);
}
