// `npm run bench [-- name-filter...]`: runs every bench/*.ts that exports main(), one after the
// other (they measure, so they must not share the two cores), each under its own header.
// Helpers live in bench/support/ or in files starting with "_"; they are not benches. A bench
// fails by throwing, or by answering an object with `ok: false` (a figure below its bar).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface BenchModule {
  main?: () => unknown;
}

function reportedFailure(result: unknown): boolean {
  return typeof result === 'object' && result !== null && (result as { ok?: unknown }).ok === false;
}

async function run(): Promise<number> {
  const dir = import.meta.dirname;
  const filters = process.argv.slice(2);
  const files = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => e.name)
    .filter((name) => name !== 'run.ts' && !name.startsWith('_'))
    .filter((name) => filters.length === 0 || filters.some((f) => name.includes(f)))
    .sort();

  const failed: string[] = [];
  let ran = 0;
  for (const name of files) {
    const mod = (await import(pathToFileURL(path.join(dir, name)).href)) as BenchModule;
    if (typeof mod.main !== 'function') continue;
    ran++;
    console.log(`\n=== ${name.replace(/\.ts$/, '')} ${'='.repeat(Math.max(3, 70 - name.length))}`);
    const started = performance.now();
    try {
      const result = await mod.main();
      if (reportedFailure(result)) throw new Error(`${name} reported ok: false`);
      console.log(`--- ${name}: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    } catch (err) {
      failed.push(name);
      console.error(
        `--- ${name}: FAILED after ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      console.error(err);
    }
  }

  if (ran === 0) {
    console.log(filters.length ? `No bench matches ${filters.join(', ')}.` : 'No benches yet.');
    return filters.length ? 1 : 0;
  }
  console.log(`\n${ran - failed.length} of ${ran} benches finished.`);
  if (failed.length) console.error(`Failed: ${failed.join(', ')}`);
  return failed.length ? 1 : 0;
}

run().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
