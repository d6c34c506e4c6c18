// Finding a key in a list of document keys sorted ascending, from a cursor onwards: the step that
// MaxScore's lookups and the term-at-a-time ranges share.

/** First position >= from whose key is >= key (galloping, then binary search). */
export function seek(keys: Float64Array, length: number, from: number, key: number): number {
  if (from >= length || keys[from]! >= key) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < length && keys[hi]! < key) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  if (hi > length) hi = length;
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid;
    else hi = mid;
  }
  return hi;
}
