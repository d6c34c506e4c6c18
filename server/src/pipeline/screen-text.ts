// On-screen text of each scene, read on this machine by OCR (analysis/local/ocr.ts) whatever
// AI_PROVIDER is, like the faces and objects: the words then reach every provider's scene
// descriptions and, from the perceive step's record, the search index. Best effort: without it the video is still described from everything else, so a failure is logged,
// not fatal. The perceive step reads it alongside the face and object models (the OCR engine and
// the text detection work on other threads than the models: on two cores the two overlap).
import { readScreenText } from '../analysis/local/ocr.ts';
import type { SceneEvidence, ScreenLine } from '../analysis/provider.ts';
import type { StepContext } from './step-context.ts';

/** The lines read in each scene; null when the reading failed. */
export async function readScreenLines(
  s: StepContext,
  scenes: Pick<SceneEvidence, 'startMs' | 'endMs' | 'framePaths'>[],
): Promise<ScreenLine[][] | null> {
  const log = s.ctx.log.child({ component: 'analysis' });
  try {
    const read = await readScreenText(scenes, {
      language: s.video.output_language,
      signal: s.signal,
    });
    log.info(
      {
        videoId: s.video.id,
        frames: read.framesRead,
        ms: read.ms,
        scenesWithText: read.scenes.filter((l) => l.length > 0).length,
      },
      'on-screen text read',
    );
    return scenes.map((_, i) => read.scenes[i] ?? []);
  } catch (err) {
    if (s.signal.aborted) throw err;
    log.warn({ videoId: s.video.id, err }, 'on-screen text not read');
    return null;
  }
}

/** The lines read into the scenes' evidence (the text joined as well as line by line). */
export function addScreenLines(scenes: SceneEvidence[], read: ScreenLine[][]): void {
  scenes.forEach((scene, i) => {
    const lines = read[i] ?? [];
    if (lines.length === 0) return;
    scene.onScreenLines = lines;
    scene.onScreenText = lines.map((l) => l.text).join(' / ');
  });
}
