/**
 * fn over items with at most `limit` calls in flight, the results in the items' order. After a
 * failure no further call starts; the first failure is thrown once the calls in flight are over
 * (so a caller that cleans up afterwards does not race them).
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  let failure: unknown;
  const lane = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!, i);
      } catch (err) {
        if (!failed) failure = err;
        failed = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failed) throw failure;
  return results;
}
