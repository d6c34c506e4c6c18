// The Node flags an npm script starts its process with (package.json: "node <flags> <script>"),
// so that a bench's child process runs as `npm start` or `npm run worker` does: the flags are
// written in one place, the script.
import fs from 'node:fs';
import path from 'node:path';

export function npmScriptNodeFlags(script: 'start' | 'worker'): string[] {
  const pkg = JSON.parse(
    fs.readFileSync(path.join(import.meta.dirname, '..', 'package.json'), 'utf8'),
  ) as { scripts: Record<string, string> };
  const words = pkg.scripts[script]!.split(/\s+/).filter(Boolean);
  if (words[0] !== 'node') throw new Error(`npm script ${script} does not start with node`);
  // The words between `node` and the script file (the last word).
  return words.slice(1, -1);
}
