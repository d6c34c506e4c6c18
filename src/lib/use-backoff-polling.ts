// Polling that slows down while a job runs: quick at first (a short job shows its result
// soon), then backing off so a long one does not keep hitting the server. Stops when inactive.
import { useEffect, useState } from 'react';

export interface Backoff {
  firstMs: number;
  maxMs: number;
  factor: number;
}

export function nextPollInterval(previousMs: number, backoff: Backoff): number {
  if (previousMs <= 0) return backoff.firstMs;
  return Math.min(backoff.maxMs, Math.round(previousMs * backoff.factor));
}

/**
 * The interval to hand RTK Query's pollingInterval: 0 while inactive; while active, it grows by
 * `factor` after every answer (answeredAt changes), from firstMs up to maxMs.
 */
export function useBackoffPolling(
  active: boolean,
  answeredAt: number | undefined,
  backoff: Backoff,
): number {
  const [interval, setPollInterval] = useState(0);
  useEffect(() => {
    setPollInterval((previous) => (active ? nextPollInterval(previous, backoff) : 0));
    // answeredAt is the trigger: every answer moves the interval one step.
  }, [active, answeredAt, backoff]);
  return interval;
}
