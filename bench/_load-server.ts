// Child process for bench/load.ts: `npm start`'s server (embedded PGlite on disk in DATA_DIR,
// WORKER from the env) with one team of LOAD_VIDEOS analysed videos and LOAD_CLIENTS signed-in
// sessions. Run twice: LOAD_PHASE=seed writes the archive (and the video to analyse, with
// LOAD_ANALYSIS) and stops, writing what it made to SEED_FILE; LOAD_PHASE=serve starts the server
// afresh on it, as `npm start` on an existing archive (the seeding's own memory is not the
// server's at rest), and writes {"url", "tokens", "videoIds", "analysed"} to READY_FILE once it
// serves. With LOAD_ANALYSIS=1 it keeps a real analysis of a 60 s video running the whole time;
// with LOAD_ANALYSIS=once it analyses that video once each time it gets SIGUSR2 (memory states).
import fs from 'node:fs';
import path from 'node:path';
import { hashPassword } from '../server/src/auth/passwords.ts';
import { loadConfig } from '../server/src/config.ts';
import { stopOnSignals } from '../server/src/lifecycle/shutdown.ts';
import { enqueueAnalysis } from '../server/src/pipeline/enqueue.ts';
import { createSession } from '../server/src/repositories/sessions.ts';
import { findOrCreateTeam, insertUser } from '../server/src/repositories/users.ts';
import { startServer, type Running } from '../server/src/server.ts';
import { makeVideo } from '../tests/support/media.ts';
import { seedCompletedVideo } from '../tests/support/seed.ts';

const WORDS = ['harbour', 'crane', 'ship', 'night', 'rain', 'market', 'train', 'bridge', 'snow'];
const word = (i: number): string => WORDS[i % WORDS.length]!;

interface Seeded {
  tokens: string[];
  videoIds: string[];
  /** The video LOAD_ANALYSIS analyses. */
  analysed?: string;
}

async function seed(ctx: Running['ctx']): Promise<Seeded> {
  const teamId = await findOrCreateTeam(ctx.db, 'Load');
  const userId = await insertUser(ctx.db, {
    teamId,
    email: 'load@example.com',
    fullName: 'Load',
    username: 'load',
    passwordHash: await hashPassword('loadpass1'),
    isTeamAdmin: false,
    mustChangePassword: false,
  });
  const videoIds: string[] = [];
  for (let i = 0; i < Number(process.env.LOAD_VIDEOS ?? 100); i++) {
    const v = await seedCompletedVideo(ctx, {
      teamId,
      ownerId: userId,
      title: `${word(i)} ${word(i * 7 + 3)} ${i}`,
      summary: `A ${word(i)} by the ${word(i + 2)} at ${word(i + 5)}.`,
      scenes: Array.from({ length: 5 }, (_, s) => ({
        description: `${word(i + s)} and ${word(i * s + 1)} in scene ${s}`,
      })),
    });
    videoIds.push(v.id);
  }
  const tokens: string[] = [];
  for (let i = 0; i < Number(process.env.LOAD_CLIENTS ?? 200); i++) {
    tokens.push(await createSession(ctx.db, userId, ctx.now()));
  }
  if ((process.env.LOAD_ANALYSIS ?? '0') === '0') return { tokens, videoIds };
  const made = await makeVideo({
    segments: WORDS.slice(0, 6).map((_, i) => ({
      source: ['testsrc2', 'smptebars', 'mandelbrot', 'rgbtestsrc'][i % 4]!,
      seconds: 10,
    })),
    width: 640,
    height: 360,
    fps: 25,
    silentAudio: true,
  });
  const video = await seedCompletedVideo(ctx, { teamId, ownerId: userId, status: 'uploading' });
  await ctx.storage.put(video.keys.source, fs.readFileSync(made.file), 'video/mp4');
  return { tokens, videoIds, analysed: video.id };
}

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, PORT: '0' });
  const seedFile = path.resolve(process.env.SEED_FILE!);
  const running = await startServer(config);
  const { ctx } = running;
  if (process.env.LOAD_PHASE === 'seed') {
    fs.writeFileSync(seedFile, JSON.stringify(await seed(ctx)));
    await running.close();
    process.exit(0);
  }
  const seeded = JSON.parse(fs.readFileSync(seedFile, 'utf8')) as Seeded;
  const { analysed } = seeded;
  if (analysed) {
    const again = (): void => void enqueueAnalysis(ctx, analysed).catch(() => undefined);
    if (process.env.LOAD_ANALYSIS === 'once') process.on('SIGUSR2', again);
    else {
      // Start it again whenever it ends, so an analysis runs during the whole measurement.
      again();
      setInterval(again, 1000).unref();
    }
  }
  const address = running.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const ready = { url: `http://127.0.0.1:${address.port}`, ...seeded };
  fs.writeFileSync(path.resolve(process.env.READY_FILE!), JSON.stringify(ready));
  stopOnSignals(running, ctx.log.child({}, { level: 'silent' }));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
