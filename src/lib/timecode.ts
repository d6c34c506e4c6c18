// Times of scenes and captions: the analysis writes "HH:MM:SS.mmm"; players work in seconds.

/** "00:01:02.500" as 62.5 seconds; anything unreadable as 0. */
export function toSeconds(time: string): number {
  const parts = time.split(':').map(Number);
  if (parts.length === 0 || parts.some((n) => !Number.isFinite(n))) return 0;
  return parts.reduce((total, part) => total * 60 + part, 0);
}

/** 62.5 seconds as "1:02"; an hour or more as "1:02:03". */
export function clock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The index of the last of the ascending `starts` at or before `at`; -1 before the first. */
export function lastStartAt(starts: readonly number[], at: number): number {
  let low = 0;
  let high = starts.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (starts[mid]! <= at) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/** A "t" query value (seconds, as a scene hit's link carries it); null when absent or unreadable. */
export function readSeconds(raw: string | null): number | null {
  if (raw === null || !/^\d{1,6}(\.\d{1,3})?$/.test(raw)) return null;
  return Number(raw);
}
