// The whole analysis as one JSON file: the detail answer without its signed paths (they expire,
// and a file kept for later must not carry working links to the team's files).
import type { ApiVideoDetail } from '../routes/videos/serialize.ts';

export interface AnalysisFile {
  id: string;
  filename: string;
  title: string | null;
  summary: string | null;
  tags: string[];
  video_date: string | null;
  video_length: number | null;
  created_at: string;
  scenes: {
    index: number;
    start_time: string;
    end_time: string;
    description: string;
    people: string[];
    objects: string[];
    screen_text: string;
  }[];
  captions: { language: string | null; cues: ApiVideoDetail['output_data']['captions'] };
  people: ApiVideoDetail['people'];
}

export function analysisJson(detail: ApiVideoDetail): string {
  const file: AnalysisFile = {
    id: detail.id,
    filename: detail.filename,
    title: detail.title,
    summary: detail.summary,
    tags: detail.tags.map((t) => t.name),
    video_date: detail.video_date,
    video_length: detail.video_length,
    created_at: detail.created_at,
    scenes: detail.output_data.scenes.map((s) => ({
      index: s.index,
      start_time: s.start_time,
      end_time: s.end_time,
      description: s.description,
      people: s.people.map((p) => p.name),
      objects: s.objects,
      screen_text: s.screen_text,
    })),
    captions: {
      language: detail.captions_track?.language ?? null,
      cues: detail.output_data.captions,
    },
    people: detail.people,
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}
