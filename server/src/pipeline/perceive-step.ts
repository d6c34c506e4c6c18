// Who and what is in each scene (issue 16), with either provider: the people images' faces
// are described, the scenes' faces matched against the team's people, and the COCO objects seen
// on enough frames kept; the OCR reads the words on screen meanwhile (pipeline/screen-text.ts).
// Most scenes are looked at during the scene cut already (perception/perceive-ahead.ts). Faces go
// to the database with their descriptors and crops, and to the team's people (faces/scene-faces.ts);
// the step's recorded result holds only names, counts and labels for the understand step.
import type { ScreenLine } from '../analysis/provider.ts';
import { loadPerception } from '../perception/thread.ts';
import { PerceiveAhead, perceiveAllScenes } from '../perception/perceive-ahead.ts';
import { NOT_OBJECTS, type PerceivedScene } from '../perception/perceive-scenes.ts';
import { describePeopleImages, storeSceneFaces, type FaceWork } from '../faces/scene-faces.ts';
import type { SourceVideo } from '../perception/source-look.ts';
import { probeOf } from './media-steps.ts';
import type { ScenesResult } from './scenes-result.ts';
import { readScreenLines } from './screen-text.ts';
import type { Step, StepContext } from './step-context.ts';
import { scenesOf } from './video-store.ts';

export interface ScenePerception {
  /** Names of the people recognised, best match first. */
  people: string[];
  /** Faces seen that match no one (the most seen together on one frame). */
  unnamed: number;
  /** COCO labels seen on enough frames, most frames first. */
  objects: string[];
}

export interface PerceiveResult {
  scenes: ScenePerception[];
  frames: number;
  faceMs: number;
  objectFrames: number;
  objectMs: number;
  /** Scenes looked at during the cut (absent from records made before). */
  aheadScenes?: number;
  /**
   * On-screen lines of each scene, read by OCR alongside the models; null when the provider reads
   * none or the reading failed (absent from records made before: the understand step reads them).
   */
  screenText?: ScreenLine[][] | null;
}

/** A label counts when seen on this many of the frames looked at (fewer when fewer exist). */
export const OBJECT_MIN_FRAMES = 2;
/** On a scene with a single frame, a label needs this score instead. */
const SINGLE_FRAME_SCORE = 0.6;

export function sceneObjects(scene: PerceivedScene): string[] {
  return Object.entries(scene.objects)
    .filter(([label]) => !NOT_OBJECTS.has(label))
    .filter(([, o]) =>
      scene.objectFrames >= OBJECT_MIN_FRAMES
        ? o.frames >= OBJECT_MIN_FRAMES
        : o.score >= SINGLE_FRAME_SCORE,
    )
    .sort((a, b) => b[1].frames - a[1].frames || b[1].score - a[1].score)
    .map(([label]) => label);
}

/**
 * The video being analysed, for small faces to be described at full size (perception/
 * source-look.ts); undefined when it cannot be read (the frames alone are looked at then).
 */
export function sourceOf(s: StepContext): Promise<SourceVideo | undefined> {
  try {
    const { width, format } = probeOf(s);
    const key = s.video.source_key;
    if (!width || !key) return Promise.resolve(undefined);
    return s.localFile(key).then(
      (file) => ({ ffmpeg: s.tools.ffmpeg, file, format, width }),
      () => undefined,
    );
  } catch {
    return Promise.resolve(undefined);
  }
}

/** The scenes looked at during the cut (started by this step's prepare), if any. */
export function perceiveAheadOf(s: StepContext): PerceiveAhead | undefined {
  const ahead = s.ahead.get('perceive');
  return ahead instanceof PerceiveAhead ? ahead : undefined;
}

export const perceiveStep: Step<PerceiveResult> = {
  name: 'perceive',
  // The models load in their thread (about 3 s of one core) during the scene cut, whose decode
  // runs on one thread and leaves the other core to them; then they look at the scenes the cut
  // has settled (scenes step).
  prepare: {
    after: 'rendition',
    start(s) {
      void loadPerception();
      s.ahead.set('perceive', new PerceiveAhead({ signal: s.signal, source: sourceOf(s) }));
    },
  },
  async run(s) {
    const stored = await scenesOf(s.ctx.db, s.video.id);
    const cut = s.results.get('scenes') as ScenesResult | undefined;
    const scenes = await Promise.all(
      stored.map(async (scene, i) => {
        const frameMs = cut?.scenes[i]?.frameMs;
        return {
          startMs: scene.start_ms,
          endMs: scene.end_ms,
          framePaths: await Promise.all(scene.frames.map((k) => s.localFile(k))),
          ...(frameMs?.length === scene.frames.length && { frameMs }),
        };
      }),
    );
    // The OCR (text detection here, the engine in its own thread) runs while the models work in
    // theirs, from the moment they have their first frame (or at once when most scenes were
    // looked at during the cut): started together, its decode and detection delayed that frame
    // by about a second, a second the models (then the longest part) lost. It never fails (a
    // failure is logged), so it is simply awaited at the end; it does not start when looking at
    // the faces and objects failed.
    let startReading!: (start: boolean) => void;
    const reading = new Promise<boolean>((resolve) => (startReading = resolve)).then((start) =>
      start ? readScreenLines(s, scenes) : null,
    );
    let seen: Awaited<ReturnType<typeof perceiveAllScenes>>;
    const faceWork: FaceWork = {
      ctx: s.ctx,
      ffmpeg: s.tools.ffmpeg,
      videoId: s.video.id,
      signal: s.signal,
      localFile: (key) => s.localFile(key),
    };
    try {
      await describePeopleImages(faceWork);
      seen = await perceiveAllScenes(perceiveAheadOf(s), scenes, {
        signal: s.signal,
        source: sourceOf(s),
        onFirstLook: () => startReading(true),
      });
      startReading(true);
    } finally {
      startReading(false);
      await reading.catch(() => undefined);
    }
    const who = await storeSceneFaces(
      faceWork,
      stored.map((scene, i) => ({ idx: scene.idx, framePaths: scenes[i]!.framePaths })),
      seen.scenes,
    );
    const result: PerceiveResult = {
      scenes: seen.scenes.map((scene, i) => ({ ...who[i]!, objects: sceneObjects(scene) })),
      ...seen.stats,
      aheadScenes: seen.aheadScenes,
      screenText: await reading,
    };
    return result;
  },
};
