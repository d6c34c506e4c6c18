// HTTP byte ranges (RFC 9110 section 14): one range per request, which is what media players
// send. Several ranges get the whole file, which the RFC allows.
export type RangeResult =
  { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

export function parseRange(header: string | undefined, size: number): RangeResult {
  if (header === undefined) return { kind: 'full' };
  const match = /^\s*bytes\s*=\s*(.*)$/i.exec(header);
  // Other units must be ignored.
  if (!match) return { kind: 'full' };
  const specs = match[1]!.split(',').map((s) => s.trim());
  if (specs.length > 1) return { kind: 'full' };
  const spec = /^(\d*)-(\d*)$/.exec(specs[0]!);
  if (!spec || (spec[1] === '' && spec[2] === '')) return { kind: 'unsatisfiable' };
  const [, first, last] = spec;
  if (first === '') {
    // Suffix range: the last N bytes.
    const n = Number(last);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || Number(last || start) < start) {
    return { kind: 'unsatisfiable' };
  }
  return { kind: 'partial', start, end };
}
