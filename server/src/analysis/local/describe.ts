// The local provider's words: title, summary, tags and scene descriptions assembled from what
// the pipeline measured and what the uploader wrote. Nothing is guessed: a sentence exists only
// when its measurement or text does.
import type { SceneEvidence, VideoEvidence, VideoUnderstanding } from '../provider.ts';
import { objectName } from '../../perception/coco-labels.ts';
import { normalizeText } from '../../search/tokenize.ts';
import {
  cleanTags,
  extractKeywords,
  extractPhrases,
  socialTag,
  type KeywordSource,
} from './keywords.ts';
import { phrasesFor, type Phrases } from './phrases.ts';

const MAX_TITLE_CHARS = 80;
const MAX_QUOTE_CHARS = 240;
const MAX_TOPIC_TAGS = 8;
const MAX_SOCIAL_TAGS = 4;
const MAX_COLORS = 3;
/** On-screen text this large (glyph height / frame height) is a title card, not a caption. */
export const TITLE_CARD_MIN_SIZE = 0.06;
const TITLE_CARD_TIE = 0.85;

function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if ([...t].length <= max) return t;
  const cut = [...t].slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut) + '…';
}

const upperFirst = (t: string): string => t.charAt(0).toUpperCase() + t.slice(1);

export function formatTimestamp(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = Math.floor((total % 60_000) / 1000);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(total % 1000, 3)}`;
}

function filenameStem(filename: string): string {
  return filename
    .replace(/\.[^.]+$/, '')
    .replace(/[_\-.]+/g, ' ')
    .trim();
}

function unique(items: string[]): string[] {
  return [...new Set(items.map((s) => s.trim()).filter(Boolean))];
}

function sceneLook(p: Phrases, scene: SceneEvidence) {
  return {
    brightness: p.brightness(scene.visual.brightness),
    colors: unique(scene.visual.dominantColors).slice(0, MAX_COLORS).map(p.color),
    motion: p.motion(scene.visual.motion),
  };
}

/** Colours weighted by scene duration, most present first. */
function overallColors(scenes: SceneEvidence[]): string[] {
  const weight = new Map<string, number>();
  for (const s of scenes) {
    const dur = Math.max(1, s.endMs - s.startMs);
    s.visual.dominantColors.forEach((c, rank) => {
      weight.set(c, (weight.get(c) ?? 0) + dur / (rank + 1));
    });
  }
  return [...weight.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_COLORS)
    .map(([c]) => c);
}

function weightedMean(scenes: SceneEvidence[], pick: (s: SceneEvidence) => number): number {
  let sum = 0;
  let total = 0;
  for (const s of scenes) {
    const dur = Math.max(1, s.endMs - s.startMs);
    sum += pick(s) * dur;
    total += dur;
  }
  return total > 0 ? sum / total : 0;
}

function describeScene(p: Phrases, scene: SceneEvidence, sep: string, lang: string): string {
  const parts = [
    p.scene({
      n: scene.index,
      start: formatTimestamp(scene.startMs),
      end: formatTimestamp(scene.endMs),
      seconds: (Math.round((scene.endMs - scene.startMs) / 100) / 10).toString(),
      ...sceneLook(p, scene),
    }),
  ];
  const people = scene.people ?? [];
  if (people.length > 0 || (scene.unnamedPeople ?? 0) > 0) {
    parts.push(p.scenePeople(people, scene.unnamedPeople ?? 0));
  }
  if (scene.objects?.length)
    parts.push(p.sceneObjects(scene.objects.map((o) => objectName(o, lang))));
  if (scene.onScreenText?.trim()) parts.push(p.onScreen(clip(scene.onScreenText, MAX_QUOTE_CHARS)));
  if (scene.captions.trim()) parts.push(p.sceneCaptions(clip(scene.captions, MAX_QUOTE_CHARS)));
  return parts.join(sep);
}

/**
 * The largest line of text shown on screen, when it is large enough to be a title card; of lines
 * about as large (within TITLE_CARD_TIE), the earliest: titles come first. A title says what the
 * maker named the video.
 */
export function titleCard(scenes: SceneEvidence[]): string | undefined {
  const lines = scenes
    .flatMap((s) => s.onScreenLines ?? [])
    .filter((l) => l.size >= TITLE_CARD_MIN_SIZE && [...l.text].length <= MAX_TITLE_CHARS);
  const largest = Math.max(0, ...lines.map((l) => l.size));
  return lines.find((l) => l.size >= largest * TITLE_CARD_TIE)?.text;
}

export function describeVideo(ev: VideoEvidence): VideoUnderstanding {
  const p = phrasesFor(ev.outputLanguage);
  // Japanese sentences follow each other without a space.
  const sep = ev.outputLanguage.toLowerCase().startsWith('ja') ? '' : ' ';
  const captionText = ev.captions.map((c) => c.text).join(' ');
  const onScreen = unique(ev.scenes.map((s) => s.onScreenText ?? '')).join(' / ');
  const names = unique(ev.people.map((x) => x.name));
  const sources: KeywordSource[] = [
    { text: ev.aboutThisVideo, weight: 3 },
    { text: onScreen, weight: 2 },
    { text: captionText, weight: 1 },
  ];
  const keywords = extractKeywords(sources, MAX_TOPIC_TAGS);
  const captionKeywords = extractKeywords([{ text: captionText, weight: 1 }], 5);
  const screenKeywords = extractKeywords([{ text: onScreen, weight: 1 }], 3);

  // Objects seen, in the output language, the most widely seen first.
  const objectCounts = new Map<string, number>();
  for (const sc of ev.scenes) {
    for (const o of sc.objects ?? []) objectCounts.set(o, (objectCounts.get(o) ?? 0) + 1);
  }
  const objects = [...objectCounts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([o]) => objectName(o, ev.outputLanguage));
  const recognised = unique(ev.scenes.flatMap((s) => s.people ?? []));

  // The title says what the video shows: the people recognised in it, with the largest heading
  // shown on screen or else the uploader's key words. Without either, what the captions talk
  // about, the people named, other words shown, else the file's name.
  const about = ev.aboutThisVideo.trim();
  const card = titleCard(ev.scenes);
  const aboutSource = [{ text: about, weight: 1 }];
  const context = cleanTags({
    names: [],
    phrases: extractPhrases(aboutSource, 2, 1),
    words: extractKeywords(aboutSource, 3),
    max: 3,
    keepCase: true,
  });
  const what = card ?? (context.length > 0 ? p.list(context) : undefined);
  const title = clip(
    recognised.length > 0 || what
      ? upperFirst(p.titleOf(recognised, what))
      : captionKeywords.length > 0
        ? p.titleMentions(captionKeywords.slice(0, 3))
        : names.length > 0
          ? p.titleWithPeople(names)
          : screenKeywords.length > 0
            ? p.titleShows(screenKeywords)
            : filenameStem(ev.filename) || ev.filename,
    MAX_TITLE_CHARS,
  );

  const scenes = ev.scenes;
  const avgShotSec = scenes.length
    ? scenes.reduce((n, s) => n + (s.endMs - s.startMs), 0) / scenes.length / 1000
    : ev.durationSec;
  const summary: string[] = [
    p.overview({
      duration: p.duration(ev.durationSec),
      size: ev.width && ev.height ? `${ev.width}×${ev.height}` : undefined,
      date: ev.creationDate ? p.date(ev.creationDate) : undefined,
      scenes: Math.max(scenes.length, 1),
      avgShotSec,
    }),
  ];
  if (about) summary.push(p.about(clip(about, MAX_QUOTE_CHARS * 2)));
  if (names.length) summary.push(p.people(names));
  if (recognised.length) {
    const withPeople = scenes.filter((s) => (s.people ?? []).length > 0).length;
    summary.push(p.peopleSeen(recognised, withPeople, scenes.length));
  }
  summary.push(captionKeywords.length ? p.captionsMention(captionKeywords) : p.noCaptions);
  if (onScreen) summary.push(p.onScreen(clip(onScreen, MAX_QUOTE_CHARS)));
  if (scenes.length) {
    summary.push(
      p.look({
        brightness: p.brightness(weightedMean(scenes, (s) => s.visual.brightness)),
        colors: overallColors(scenes).map(p.color),
        motion: p.motion(weightedMean(scenes, (s) => s.visual.motion)),
      }),
    );
  }

  const topics = cleanTags({
    names: unique([...recognised, ...names]),
    phrases: extractPhrases(sources, MAX_TOPIC_TAGS),
    words: [...objects, ...keywords],
    max: MAX_TOPIC_TAGS,
  });
  const social = unique(
    keywords.slice(0, MAX_SOCIAL_TAGS).map((k) => socialTag(normalizeText(k))),
  ).filter((t) => t.length > 1);
  return {
    title,
    summary: summary.join(sep),
    tags: [...topics, ...social],
    sceneDescriptions: scenes.map((s) => describeScene(p, s, sep, ev.outputLanguage)),
  };
}
