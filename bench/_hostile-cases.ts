// The size of the hostile-input catalogue (issue 15 asks for at least 100 cases across every
// call): the named cases in tests/integration/hostile by file, as vitest collects them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const MIN_CASES = 100;

interface Listed {
  name: string;
  file: string;
}

export function countCases(): { ok: boolean; cases: number } {
  const root = path.resolve(import.meta.dirname, '..');
  const vitest = path.join(root, 'node_modules', '.bin', 'vitest');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-hostile-'));
  const file = path.join(dir, 'cases.json');
  try {
    // --json to a file: vitest prints nothing on a piped stdout.
    execFileSync(vitest, ['list', `--json=${file}`, 'tests/integration/hostile'], {
      cwd: root,
      stdio: 'ignore',
    });
    return count(root, JSON.parse(fs.readFileSync(file, 'utf8')) as Listed[]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function count(root: string, listed: Listed[]): { ok: boolean; cases: number } {
  const byFile = new Map<string, number>();
  for (const t of listed) {
    const file = path.relative(root, t.file);
    byFile.set(file, (byFile.get(file) ?? 0) + 1);
  }
  for (const [file, n] of [...byFile].sort()) console.log(`${String(n).padStart(5)}  ${file}`);
  console.log(
    `${String(listed.length).padStart(5)}  hostile-input cases in all (bar: ${MIN_CASES})`,
  );
  return { ok: listed.length >= MIN_CASES, cases: listed.length };
}
