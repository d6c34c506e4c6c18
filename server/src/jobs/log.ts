// Structured JSON lines on stdout for the worker (OPERATIONS.md: LOG_LEVEL), without a logger
// dependency: the worker runs outside Fastify too.
import { logStream } from '../lifecycle/log-stream.ts';

const LEVELS = { debug: 20, info: 30, warn: 40, error: 50 } as const;
export type LogLevel = keyof typeof LEVELS;

export type Log = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => void;

export function createLog(minLevel: string, component = 'worker'): Log {
  const min = LEVELS[minLevel as LogLevel] ?? LEVELS.info;
  return (level, msg, fields = {}) => {
    if (LEVELS[level] < min) return;
    logStream.write(
      `${JSON.stringify({ level: LEVELS[level], time: Date.now(), component, msg, ...fields })}\n`,
    );
  };
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
