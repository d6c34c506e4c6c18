// A scene result's title is the first 60 characters of its description, the body the rest
// (product-spec section 2). Counted in characters, not UTF-16 units, so no emoji is cut.
import { SCENE_TITLE_LENGTH } from '../../config/limits';

export function splitSceneText(description: string, length: number = SCENE_TITLE_LENGTH) {
  const chars = Array.from(description);
  return { title: chars.slice(0, length).join(''), body: chars.slice(length).join('') };
}

/** Scores are 0..1; shown with two decimals. */
export function formatScore(score: number): string {
  return Number.isFinite(score) ? score.toFixed(2) : '';
}
