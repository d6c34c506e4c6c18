// One download's bytes, type and name from the video's detail answer.
import type { ApiVideoDetail } from '../routes/videos/serialize.ts';
import { analysisJson } from './analysis.ts';
import { captionsSrt, captionsVtt } from './captions.ts';
import { scenesCsv } from './csv.ts';
import { DOWNLOADS, type DownloadKind } from './files.ts';
import { downloadName } from './name.ts';

export interface DownloadFile {
  body: Buffer;
  contentType: string;
  name: string;
}

function text(kind: DownloadKind, detail: ApiVideoDetail): string {
  switch (kind) {
    case 'captions_vtt':
      return captionsVtt(detail.output_data.captions);
    case 'captions_srt':
      return captionsSrt(detail.output_data.captions);
    case 'scenes_csv':
      return scenesCsv(detail.output_data.scenes);
    case 'analysis_json':
      return analysisJson(detail);
  }
}

/** The file, or undefined when there is none (captions of a video without any). */
export function buildDownload(
  kind: DownloadKind,
  detail: ApiVideoDetail,
): DownloadFile | undefined {
  if (detail.downloads[kind] === null) return undefined;
  const d = DOWNLOADS[kind];
  return {
    body: Buffer.from(text(kind, detail), 'utf8'),
    contentType: d.type,
    name: downloadName(detail.title, detail.filename, d.ext),
  };
}
