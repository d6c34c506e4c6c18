// The contract between the page and the duration probe worker. It lives here, in a folder both
// TypeScript projects (DOM and worker) compile, because the app project cannot include src/workers;
// the worker declares `satisfies ProbeContract` so the two cannot drift apart.

export interface ProbeResult {
  /** Seconds, fractional. */
  durationSeconds: number;
  /** Creation time from the file's metadata, epoch milliseconds; undefined when absent. */
  createdAtMs: number | undefined;
  /** Which parser answered, and how much it read (for diagnostics and the bench). */
  parser: 'mp4box' | 'mediainfo';
  bytesRead: number;
}

export interface ProbeContract {
  probe(file: Blob): Promise<ProbeResult>;
  /** Hex SHA-256 of the whole file (read in slices). */
  sha256(file: Blob): Promise<string>;
}
