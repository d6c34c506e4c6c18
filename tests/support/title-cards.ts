// Slide-like title cards in one layout (a flat colour, one centred line of text in a contrasting
// colour) joined mostly by hard cuts, where the next card is the same picture up to a change of
// lightness: light to dark, dark to light, or the same hue at another lightness (issue 16, the
// missed cut); optionally also another hue at the same brightness, as pink to beige (issue 31).
// Fades through black and cross-dissolves are mixed in. Seeded, so a seed is always
// the same video. Drawn with ffmpeg's drawtext and a system font (Debian's ffmpeg and the npm
// static one both have it).
import { mulberry32 } from '../../server/src/lib/seeded-random.ts';
import { drawtextFont, type Segment, type Transition } from './media.ts';

export type CardChange = 'light-to-dark' | 'dark-to-light' | 'same-hue' | 'same-brightness';

export interface Card {
  /** Background 0xRRGGBB. */
  background: string;
  /** Text colour 0xRRGGBB: dark on light cards, light on dark ones. */
  ink: string;
  text: string;
}

const WORDS = [
  'Quarterly',
  'Results',
  'Welcome',
  'Chapter',
  'Roadmap',
  'Summary',
  'Questions',
  'Thank You',
  'Agenda',
  'Budget',
  'Launch',
  'Design',
  'Review',
  'Team',
  'Goals',
  'Next Steps',
  'Overview',
  'Customers',
  'Growth',
  'Sales',
  'Hiring',
  'Product',
  'Research',
  'Part Two',
];

/** HSL (h in degrees, s and l 0..1) as 0xRRGGBB. */
function hsl(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number): number => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return `0x${[f(0), f(8), f(4)].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/** Rec. 601 brightness of a 0xRRGGBB colour, 0..1. */
function luma(rgb: string): number {
  const v = parseInt(rgb.slice(2), 16);
  return (0.299 * (v >> 16) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255)) / 255;
}

/** The HSL lightness at which (hue, sat) has the brightness y (bisection: luma grows with l). */
function lightnessFor(hue: number, sat: number, y: number): number {
  let lo = 0.02;
  let hi = 0.98;
  for (let k = 0; k < 20; k++) {
    const mid = (lo + hi) / 2;
    if (luma(hsl(hue, sat, mid)) < y) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

type Rnd = () => number;
const between = (rnd: Rnd, lo: number, hi: number): number => lo + rnd() * (hi - lo);

function card(rnd: Rnd, hue: number, sat: number, lightness: number): Card {
  const light = lightness >= 0.5;
  const words = [WORDS[Math.floor(rnd() * WORDS.length)]!];
  if (rnd() < 0.6) words.push(WORDS[Math.floor(rnd() * WORDS.length)]!);
  return {
    background: hsl(hue, sat, lightness),
    // Near-black or near-white ink, slightly tinted by the card's hue.
    ink: hsl(hue, 0.3, light ? between(rnd, 0.05, 0.15) : between(rnd, 0.88, 0.97)),
    text: words.join(' '),
  };
}

/**
 * The next card after one of (hue, lightness): half the time a card of another hue on the other
 * side of mid-grey (light to dark, dark to light), else the same hue at least a third lighter or
 * darker (which may stay on the same side: then only the lightness changes, text colour too).
 */
function nextCard(
  rnd: Rnd,
  from: { hue: number; lightness: number; sat: number },
  sameBrightness: number,
): { change: CardChange; hue: number; lightness: number; sat: number } {
  const { hue, lightness } = from;
  // Asked only when wanted, so the older videos' seeds draw the same numbers.
  if (sameBrightness > 0 && rnd() < sameBrightness) {
    const next = (hue + between(rnd, 40, 320)) % 360;
    const sat = between(rnd, 0.25, 0.8);
    const y = luma(hsl(hue, from.sat, lightness));
    return { change: 'same-brightness', hue: next, lightness: lightnessFor(next, sat, y), sat };
  }
  const sat = between(rnd, 0.2, 0.8);
  const light = lightness >= 0.5;
  if (rnd() < 0.5) {
    return light
      ? { change: 'light-to-dark', hue: rnd() * 360, lightness: between(rnd, 0.08, 0.3), sat }
      : { change: 'dark-to-light', hue: rnd() * 360, lightness: between(rnd, 0.72, 0.92), sat };
  }
  const canDarken = lightness - 0.33 >= 0.08;
  const canLighten = lightness + 0.33 <= 0.92;
  const darker = canDarken && (!canLighten || rnd() < 0.5);
  const l = darker ? between(rnd, 0.08, lightness - 0.33) : between(rnd, lightness + 0.33, 0.92);
  return { change: 'same-hue', hue, lightness: l, sat };
}

export interface CardVideo {
  segments: Segment[];
  /** Per boundary: 'cut:<change>' or the fade/dissolve. */
  kinds: string[];
  cards: Card[];
}

/**
 * `count` cards of 1.5 to 3.5 s in one layout; each transition is a hard cut with probability
 * `cutShare`, else a fade through black or a dissolve of 0.5 to 2 s. A share `sameBrightness` of
 * the changes (default none) keeps the brightness and changes the hue. Font size scales with height.
 */
export function cardVideo(
  seed: number,
  o: { count: number; height: number; cutShare?: number; font?: string; sameBrightness?: number },
): CardVideo {
  const rnd = mulberry32(seed);
  const font = o.font ?? drawtextFont();
  if (/['\\:]/.test(font)) throw new Error(`font path not usable in a filter graph: ${font}`);
  let hue = rnd() * 360;
  let lightness = rnd() < 0.5 ? between(rnd, 0.75, 0.92) : between(rnd, 0.08, 0.25);
  let sat = between(rnd, 0.2, 0.8);
  const cards: Card[] = [];
  const kinds: string[] = [];
  const transitions: (Transition | undefined)[] = [undefined];
  for (let i = 0; i < o.count; i++) {
    if (i > 0) {
      const next = nextCard(rnd, { hue, lightness, sat }, o.sameBrightness ?? 0);
      ({ hue, lightness, sat } = next);
      const r = rnd();
      const cutShare = o.cutShare ?? 0.7;
      const t: Transition =
        r < cutShare
          ? { kind: 'cut' }
          : {
              kind: r < cutShare + (1 - cutShare) / 2 ? 'fade' : 'dissolve',
              seconds: Math.round(between(rnd, 0.5, 2) * 100) / 100,
            };
      transitions.push(t);
      kinds.push(t.kind === 'cut' ? `cut:${next.change}` : `${t.kind}${t.seconds}`);
    }
    cards.push(card(rnd, hue, sat, lightness));
  }
  const px = Math.round(o.height * 0.12);
  const segments = cards.map((c, i): Segment => {
    const overlap = (t: Transition | undefined): number => (t?.kind === 'dissolve' ? t.seconds : 0);
    const body = Math.round(between(rnd, 1.5, 3.5) * 100) / 100;
    return {
      source: `color=c=${c.background}`,
      extra:
        `drawtext=fontfile=${font}:text='${c.text}':fontsize=${px}:fontcolor=${c.ink}:` +
        'x=(w-tw)/2:y=(h-th)/2',
      seconds: body + overlap(transitions[i]) + overlap(transitions[i + 1]),
      transition: transitions[i],
    };
  });
  return { segments, kinds, cards };
}
