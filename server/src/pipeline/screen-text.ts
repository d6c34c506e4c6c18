// On-screen text of each scene, read by the provider's OCR (the local provider has one). Best
// effort: without it the video is still described from everything else, so a failure is logged,
// not fatal. The perceive step reads it alongside the face and object models (the OCR engine and
// the text detection work on other threads than the models: on two cores the two overlap).
import type { AnalysisProvider, SceneEvidence, ScreenLine } from '../analysis/provider.ts';
import type { StepContext } from './step-context.ts';

/** The lines read in each scene; null when the provider reads none or the reading failed. */
export async function readScreenLines(
  s: StepContext,
  provider: AnalysisProvider,
  scenes: Pick<SceneEvidence, 'startMs' | 'endMs' | 'framePaths'>[],
): Promise<ScreenLine[][] | null> {
  if (!provider.readScreenText) return null;
  const log = s.ctx.log.child({ component: 'analysis' });
  try {
    const read = await provider.readScreenText(scenes, s.video.output_language, {
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
