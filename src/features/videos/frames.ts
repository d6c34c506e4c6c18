// Frame preview of a scene (product-spec section 9): at most a few, evenly sampled.
import { FRAME_PREVIEW_COUNT } from '../../config/limits';

/** `count` items spread evenly from first to last; all of them when there are not more. */
export function sampleEvenly<T>(items: readonly T[], count: number = FRAME_PREVIEW_COUNT): T[] {
  if (items.length <= count) return [...items];
  if (count <= 1) return items.slice(0, Math.max(0, count));
  const step = (items.length - 1) / (count - 1);
  return Array.from({ length: count }, (_, i) => items[Math.round(i * step)]!);
}

/** "00:01:02.500" shown as "00:01:02". */
export function shortTime(time: string): string {
  return time.replace(/\.\d+$/, '');
}
