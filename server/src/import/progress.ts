// The import's progress: files, bytes and an estimated time left. On a terminal one bar redrawn
// in place; otherwise (a log, a pipe) a plain line at most every 5 s and at the end.
const BAR = 24;
const LINE_EVERY_MS = 5000;
const REDRAW_EVERY_MS = 100;

export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = n;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

export class Progress {
  private files = 0;
  private bytes = 0;
  private readonly started = Date.now();
  private lastDraw = 0;

  constructor(
    private readonly out: NodeJS.WritableStream & { isTTY?: boolean },
    private readonly label: string,
    private readonly totalFiles: number,
    private readonly totalBytes: number,
  ) {}

  add(files: number, bytes: number): void {
    this.files += files;
    this.bytes += bytes;
    const now = Date.now();
    if (now - this.lastDraw >= (this.out.isTTY ? REDRAW_EVERY_MS : LINE_EVERY_MS)) {
      this.lastDraw = now;
      this.draw(false);
    }
  }

  done(): void {
    this.draw(true);
  }

  /** What is left, from the bytes done so far (each file's fixed cost counted by files). */
  private left(): string {
    const elapsed = Date.now() - this.started;
    if (this.files === 0 || elapsed < 500) return 'estimating';
    const byFiles = (elapsed / this.files) * (this.totalFiles - this.files);
    const byBytes =
      this.bytes > 0 ? (elapsed / this.bytes) * (this.totalBytes - this.bytes) : byFiles;
    return `about ${formatDuration((byFiles + byBytes) / 2)} left`;
  }

  private draw(final: boolean): void {
    const share = this.totalBytes > 0 ? this.bytes / this.totalBytes : this.files / this.totalFiles;
    const text =
      `${this.label} ${this.files}/${this.totalFiles} files, ` +
      `${formatBytes(this.bytes)} of ${formatBytes(this.totalBytes)}, ` +
      (final ? `done in ${formatDuration(Date.now() - this.started)}` : this.left());
    if (this.out.isTTY) {
      const filled = Math.round(share * BAR);
      this.out.write(`\r\x1b[2K[${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}] ${text}`);
      if (final) this.out.write('\n');
    } else {
      this.out.write(`${text}\n`);
    }
  }
}
