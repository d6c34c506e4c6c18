// Faces and objects of the scenes the cut has settled, looked at while the cut goes on: the
// models' thread is otherwise idle for the seconds of the cut after loading, while the cut leaves
// part of the second core unused. The perceive step takes these results instead of looking
// again. A scene offered here is its final frames (the same images the scene keeps), so which
// path looked at it does not change what is found; a scene the cut changed afterwards (the scene
// cap) matches no offer and is looked at by the step, as is every scene after the last offer.
import {
  addStats,
  noStats,
  perceiveScenes,
  type PerceivedScene,
  type PerceiveTools,
  type PerceptionStats,
} from './perceive-scenes.ts';

export interface OfferedScene {
  startMs: number;
  endMs: number;
  /** The scene's frames, in the order the scene keeps them. */
  framePaths: string[];
  /** When each frame shows (ms from the video's first picture), where known. */
  frameMs?: number[];
}

const key = (startMs: number, endMs: number, frames: number): string =>
  `${startMs}:${endMs}:${frames}`;

export class PerceiveAhead {
  /** Scenes offered so far, in time order (the next offer is scene number `offered`). */
  offered = 0;
  /** The decode the offers come from (analysis-pass.ts, SettledCut.attempt). */
  attempt = 1;
  readonly stats: PerceptionStats = noStats();
  private readonly waiting: OfferedScene[] = [];
  private readonly results = new Map<string, Promise<PerceivedScene | undefined>>();
  private running: Promise<void> = Promise.resolve();
  private busy = false;
  private open = true;

  constructor(private readonly tools: Pick<PerceiveTools, 'signal' | 'source'>) {}

  /** The next settled scene; looked at as soon as the models are free. */
  offer(scene: OfferedScene): void {
    this.offered++;
    if (!this.open) return;
    this.waiting.push(scene);
    this.next();
  }

  /** The video is decoded again: what the earlier decode settled no longer holds. */
  restart(attempt: number): void {
    this.attempt = attempt;
    this.offered = 0;
    this.waiting.length = 0;
    this.results.clear();
  }

  /** The cut is over: scenes still waiting are left to the step, which decodes them at once. */
  stopOffers(): void {
    this.open = false;
    this.waiting.length = 0;
  }

  /** Resolves when no scene is being looked at (never rejects). */
  idle(): Promise<void> {
    return this.running;
  }

  /**
   * What is found in this scene, when it was offered and is being looked at or was; the promise
   * gives undefined if that failed.
   */
  take(
    startMs: number,
    endMs: number,
    frames: number,
  ): Promise<PerceivedScene | undefined> | undefined {
    return this.results.get(key(startMs, endMs, frames));
  }

  /**
   * Looks at the oldest waiting scene. One at a time: each frame is decoded when the models take
   * it (no decoder to start per batch), so a scene waits only for the one before it.
   */
  private next(): void {
    const scene = this.busy || !this.open ? undefined : this.waiting.shift();
    if (!scene) return;
    this.busy = true;
    const seen = perceiveScenes([scene], this.tools);
    this.results.set(
      key(scene.startMs, scene.endMs, scene.framePaths.length),
      seen.then(
        (r) => r.scenes[0],
        // The step looks again (a frame removed with a failed job, the models' thread lost).
        () => undefined,
      ),
    );
    this.running = seen.then(
      (r) => addStats(this.stats, r.stats),
      () => undefined,
    );
    void this.running.then(() => {
      this.busy = false;
      this.next();
    });
  }
}

/**
 * Faces and objects of every scene: those looked at during the cut are taken from there, the
 * others looked at now (and any the cut's look failed on), in one order with the same results as
 * perceiveScenes. `onFirstLook` is called once the models have their first frame here, or at once
 * when the cut's look left them at most half of the scenes: the OCR started then (perceive step)
 * is the longer part of what is left, and it no longer delays many of the models' frames.
 */
export async function perceiveAllScenes(
  ahead: PerceiveAhead | undefined,
  scenes: readonly OfferedScene[],
  tools: Pick<PerceiveTools, 'signal' | 'source' | 'onFirstLook'>,
): Promise<{ scenes: PerceivedScene[]; stats: PerceptionStats; aheadScenes: number }> {
  const early = scenes.map((x) => ahead?.take(x.startMs, x.endMs, x.framePaths.length));
  const rest = scenes.filter((_, i) => !early[i]);
  if (2 * rest.length <= scenes.length) tools.onFirstLook?.();
  const now = await perceiveScenes(rest, tools);
  const found = await Promise.all(early);
  const again = await perceiveScenes(
    scenes.filter((_, i) => early[i] && !found[i]),
    { signal: tools.signal, source: tools.source },
  );
  await ahead?.idle();
  const stats = { ...now.stats };
  addStats(stats, again.stats);
  if (ahead) addStats(stats, ahead.stats);
  const fresh = [...now.scenes];
  const retried = [...again.scenes];
  return {
    scenes: scenes.map((_, i) => (early[i] ? (found[i] ?? retried.shift()!) : fresh.shift()!)),
    stats,
    aheadScenes: found.filter((f) => f !== undefined).length,
  };
}
