// Words and vectors: the provider turns the measured evidence into title, summary, tags and
// scene descriptions; then the search index is built, last, from the stored results.
import { createProvider } from '../analysis/create.ts';
import type { VideoEvidence } from '../analysis/provider.ts';
import { indexVideo } from '../search/index-video.ts';
import { captionsStep, probeStep } from './media-steps.ts';
import { perceiveStep } from './perceive-step.ts';
import { scenesStep } from './scenes-step.ts';
import { addScreenLines, readScreenLines } from './screen-text.ts';
import { resultOf, type Step, type StepContext } from './step-context.ts';
import { peopleOf, scenesOf, updateScene, updateVideo } from './video-store.ts';

async function gatherEvidence(s: StepContext): Promise<VideoEvidence> {
  const probe = resultOf(s, probeStep);
  const { scenes: measured } = resultOf(s, scenesStep);
  const { cues } = resultOf(s, captionsStep);
  const perceived = resultOf(s, perceiveStep).scenes;
  const stored = await scenesOf(s.ctx.db, s.video.id);
  const people = await peopleOf(s.ctx.db, s.video.id);
  return {
    filename: s.video.filename,
    outputLanguage: s.video.output_language,
    aboutThisVideo: s.video.about_this_video,
    people: await Promise.all(
      people.map(async (p) => ({ name: p.name, imagePath: await s.localFile(p.image_key) })),
    ),
    durationSec: probe.durationMs / 1000,
    width: probe.width,
    height: probe.height,
    creationDate: probe.creationDate,
    captions: cues,
    scenes: await Promise.all(
      stored.map(async (scene, i) => ({
        index: scene.idx,
        startMs: scene.start_ms,
        endMs: scene.end_ms,
        framePaths: await Promise.all(scene.frames.map((k) => s.localFile(k))),
        captions: scene.captions,
        visual: measured[i]?.visual ?? { brightness: 0, motion: 0, dominantColors: [] },
        people: perceived[i]?.people ?? [],
        unnamedPeople: perceived[i]?.unnamed ?? 0,
        objects: perceived[i]?.objects ?? [],
      })),
    ),
  };
}

export const understandStep: Step<{ title: string }> = {
  name: 'understand',
  async run(s) {
    const evidence = await gatherEvidence(s);
    const provider = createProvider(s.ctx.config);
    // Read by the perceive step; a record made before that reads it here.
    const read = resultOf(s, perceiveStep).screenText;
    const lines = read !== undefined ? read : await readScreenLines(s, evidence.scenes);
    if (lines) addScreenLines(evidence.scenes, lines);
    const result = await provider.understand(evidence);
    const seen = new Set<string>();
    const tags = result.tags
      .map((t) => t.trim())
      .filter((t) => t && !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()))
      .map((name) => ({ name }));
    await s.ctx.db.tx(async (q) => {
      await updateVideo(q, s.video.id, { title: result.title, summary: result.summary, tags });
      for (const [i, scene] of evidence.scenes.entries()) {
        await updateScene(q, s.video.id, scene.index, {
          description: result.sceneDescriptions[i] ?? '',
        });
      }
    });
    return { title: result.title };
  },
};

export const indexStep: Step<Record<string, never>> = {
  name: 'index',
  async run(s) {
    await indexVideo(s.ctx, s.video.id);
    return {};
  },
};
