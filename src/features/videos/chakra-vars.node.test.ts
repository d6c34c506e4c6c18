// @vitest-environment node
// The plain-CSS parts of the detail page and the search results (chips, transcript, downloads,
// chapters, match reasons) use Chakra's tokens through their CSS variables. A variable the theme
// does not emit is empty, and the property using it silently falls back: the chips touched each
// other because `--chakra-spacing-1-5` (no such variable) made their gap 0.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appSystem } from '../../app/theme.ts';

const DIRS = ['components', '../search/components'].map((d) => path.join(import.meta.dirname, d));

/** Each `var(--chakra-…)` of the CSS modules in DIRS, with the file using it. */
function usedVariables(): { file: string; name: string }[] {
  return DIRS.flatMap((dir) =>
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.module.css'))
      .flatMap((file) =>
        [...fs.readFileSync(path.join(dir, file), 'utf8').matchAll(/var\((--chakra-[\w-]+)/g)].map(
          (m) => ({ file, name: m[1]! }),
        ),
      ),
  );
}

describe('CSS modules of the detail page and the results', () => {
  it('use only the Chakra variables the theme emits', () => {
    const emitted = new Set(appSystem().tokens.cssVarMap.get('base')?.keys());
    expect(emitted.size).toBeGreaterThan(100);
    const used = usedVariables();
    expect(used.length).toBeGreaterThan(20);
    expect(used.filter((v) => !emitted.has(v.name))).toEqual([]);
  });
});
