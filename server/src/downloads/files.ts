// The analysis downloads (issue 29): made on request from the video's rows, each reached through
// a signed asset path like any stored file, so the same signature and team check guard them.
// Their keys live under output/<videoId>/downloads/, where the pipeline writes nothing.

export const DOWNLOADS = {
  captions_vtt: { file: 'captions.vtt', ext: 'vtt', type: 'text/vtt; charset=utf-8' },
  captions_srt: { file: 'captions.srt', ext: 'srt', type: 'application/x-subrip; charset=utf-8' },
  scenes_csv: { file: 'scenes.csv', ext: 'csv', type: 'text/csv; charset=utf-8' },
  analysis_json: { file: 'analysis.json', ext: 'json', type: 'application/json; charset=utf-8' },
} as const;

export type DownloadKind = keyof typeof DOWNLOADS;

const KINDS = Object.keys(DOWNLOADS) as DownloadKind[];

export function downloadKey(videoId: string, kind: DownloadKind): string {
  return `output/${videoId}/downloads/${DOWNLOADS[kind].file}`;
}

/** The download a storage key names, or undefined for any other key. */
export function parseDownloadKey(key: string): { videoId: string; kind: DownloadKind } | undefined {
  const m = /^output\/([^/]+)\/downloads\/([^/]+)$/.exec(key);
  if (!m) return undefined;
  const kind = KINDS.find((k) => DOWNLOADS[k].file === m[2]);
  return kind ? { videoId: m[1]!, kind } : undefined;
}
