// The thresholds more than one part of the scene detector reads (the cut check, the fades and
// flashes, the gradual evidence, the still changes, the crossing moves), in one place so that the
// detectors and signals take them from below instead of from each other. Each part's own
// thresholds stay beside the rule that uses them.

/**
 * Between still pictures a smaller jump is a cut (a slide's hue and title change at the same
 * brightness): at least this, STILL_CUT_RATIO times the change before it (detectors/hard-cut.ts),
 * and the picture still after.
 */
export const STILL_CUT_MIN = 0.025;
/**
 * A sample's change (mean RGB, 0..1) under this is no change: a still picture, encoded. A
 * camera's picture is never that still (its noise and a talking head's least movements: 0.002 to
 * 0.005 a sample), so the smaller jumps between still pictures are a slide's or a title card's.
 */
export const STILL = 0.002;
/** Mean change per sample above which a shot counts as moving (a flash may end on a moved view). */
export const MOVING = 0.02;
/** Samples a flash may last (0.3 s): the picture returns within them. */
export const FLASH = 3;
/** Grey-level deviation of a fade's bottom at most (a 0.1 s sample can miss the black one). */
export const FLAT_SD = 0.06;
/** Near black: a fade's bottom (and near white, 1 - DARK). */
export const DARK = 0.035;
