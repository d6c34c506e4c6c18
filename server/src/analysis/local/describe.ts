// Placeholder until the templates land.
import type { VideoEvidence, VideoUnderstanding } from '../provider.ts';

export function describeVideo(evidence: VideoEvidence): VideoUnderstanding {
  return {
    title: evidence.filename,
    summary: evidence.aboutThisVideo,
    tags: [],
    sceneDescriptions: evidence.scenes.map((s) => s.captions),
  };
}
