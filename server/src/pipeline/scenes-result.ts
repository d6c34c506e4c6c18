// What the scenes step hands the steps after it (through the step context's results): apart
// from both, so that the perceive step reads it without importing the step that makes it.
import type { SceneVisual } from '../media/visual.ts';

export interface ScenesResult {
  scenes: {
    startMs: number;
    endMs: number;
    visual: SceneVisual;
    /**
     * When each kept frame shows (ms from the video's first picture): small faces are looked at
     * there in the video at full size (perception/source-look.ts). Absent from records made before.
     */
    frameMs?: number[];
  }[];
}
