// The labelled evaluation set of bench/search-quality.ts: what each generated video shows,
// says and is described as, and the queries with graded relevance (2: the thing asked for,
// 1: half of a two-part query). Each kind of content lives in one place only, so a query can
// target one source of evidence:
//   on screen (drawn into the frames, read back by OCR): the place as a title card, a code;
//   captions (an embedded subtitle track): the subject and what it is doing;
//   uploader context (about_this_video and the people named): the occasion and who filmed it.
// English and Japanese videos; relevance is judged within the query's language (the local
// provider does not translate), except for codes and names, which are the same in both.

export type Lang = 'en' | 'ja';
export type Channel = 'on-screen' | 'captions' | 'context' | 'mixed';

export interface EvalScene {
  /** An ffmpeg source for the background (tests/support/media.ts). */
  background: string;
  /** Text drawn on the frames; size is the glyph height as a fraction of the frame height. */
  screen?: { text: string; size: number; lang: Lang };
  /** The subtitle cue shown during the scene. */
  captions: string;
}

export interface EvalVideo {
  key: string;
  language: Lang;
  filename: string;
  about: string;
  people: string[];
  scenes: EvalScene[];
  subject: number;
  place: number;
  /** The occasion named in the uploader's text; undefined when the uploader wrote nothing. */
  event: number | undefined;
  code: string;
}

export interface EvalQuery {
  text: string;
  kind: string;
  channel: Channel;
  /** 'any' for codes and names, which read the same in both languages. */
  lang: Lang | 'any';
  /** video key -> gain grade */
  relevant: Map<string, number>;
}

const SUBJECTS = [
  { en: 'dog', ja: '犬' },
  { en: 'cat', ja: '猫' },
  { en: 'children', ja: '子供たち' },
  { en: 'chef', ja: '料理人' },
  { en: 'cyclist', ja: '自転車選手' },
  { en: 'train', ja: '電車' },
  { en: 'fireworks', ja: '花火' },
  { en: 'orchestra', ja: 'オーケストラ' },
  { en: 'surfer', ja: 'サーファー' },
  { en: 'farmer', ja: '農家' },
];
const PLACES = [
  { en: 'beach', ja: '海岸', variant: 'seaside' },
  { en: 'park', ja: '公園', variant: 'parks' },
  { en: 'kitchen', ja: '台所', variant: 'kitchens' },
  { en: 'station', ja: '駅前', variant: 'stations' },
  { en: 'harbour', ja: '港町', variant: 'harbor' },
  { en: 'stadium', ja: '競技場', variant: 'stadiums' },
  { en: 'mountain', ja: '山道', variant: 'mountains' },
  { en: 'market', ja: '市場', variant: 'markets' },
];
const ACTIONS = [
  { en: 'running', ja: '走っている' },
  { en: 'eating lunch', ja: '昼ご飯を食べている' },
  { en: 'performing', ja: '演奏している' },
  { en: 'waiting', ja: '待っている' },
  { en: 'resting', ja: '休んでいる' },
];
const EVENTS = [
  { en: 'spring festival', ja: '春祭り' },
  { en: 'school trip', ja: '修学旅行' },
  { en: 'birthday party', ja: '誕生日会' },
  { en: 'wedding', ja: '結婚式' },
  { en: 'summer holiday', ja: '夏休み' },
  { en: 'graduation', ja: '卒業式' },
];
const PEOPLE = [
  'Maria Lopez',
  'Kenji Sato',
  'Aiko Tanaka',
  'David Brown',
  'Lena Fischer',
  'Omar Haddad',
];
/** Backgrounds of the three scenes: plain colours around a test pattern, so each cut shows. */
const OPENERS = ['color=c=0x1f4e79', 'color=c=0x7a3b12', 'color=c=0x2e5e2e', 'color=c=0x5b2a6e'];
const MIDDLES = ['testsrc2', 'smptebars', 'rgbtestsrc', 'mandelbrot', 'testsrc'];
const CLOSERS = ['color=c=0x303030', 'color=c=0x0f5f6f', 'color=c=0x6f1f2f'];
const TITLE_SIZE = 0.14;
/**
 * Japanese cards say "welcome to the place" (「台所へようこそ」): a lone two-character word is
 * too short a line to read reliably.
 */
const JA_TITLE_SIZE = 0.1;
const CODE_SIZE = 0.09;

/** Deterministic pseudo-random numbers (LCG) so every run evaluates the same set. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function makeVideos(count: number, japaneseOnScreen: boolean): EvalVideo[] {
  const rand = rng(42);
  const pick = (n: number): number => Math.floor(rand() * n);
  const videos: EvalVideo[] = [];
  for (let i = 0; i < count; i++) {
    const language: Lang = i % 3 === 0 ? 'ja' : 'en';
    const subject = i % SUBJECTS.length;
    const place = pick(PLACES.length);
    const action = ACTIONS[pick(ACTIONS.length)]!;
    const person = PEOPLE[pick(PEOPLE.length)]!;
    const eventIdx = pick(EVENTS.length);
    // Every seventh uploader wrote nothing: the video is then named by its title card.
    const event = i % 7 === 3 ? undefined : eventIdx;
    const code = `${PLACES[place]!.en.slice(0, 3).toUpperCase()}-${1000 + i * 37}`;
    const s = SUBJECTS[subject]!;
    const p = PLACES[place]!;
    const e = event === undefined ? undefined : EVENTS[event]!;
    const title =
      language === 'en'
        ? { text: p.en.toUpperCase(), size: TITLE_SIZE, lang: language }
        : japaneseOnScreen
          ? { text: `${p.ja}へようこそ`, size: JA_TITLE_SIZE, lang: language }
          : undefined;
    const backgrounds = [
      OPENERS[i % OPENERS.length]!,
      MIDDLES[i % MIDDLES.length]!,
      CLOSERS[i % CLOSERS.length]!,
    ];
    const captions =
      language === 'en'
        ? [
            'hello everyone, we just arrived',
            `look at the ${s.en} ${action.en} over there`,
            'thanks for watching, see you next time',
          ]
        : [
            'みなさん、こんにちは。今着きました',
            `あそこで${s.ja}が${action.ja}のを見てください`,
            'ご覧いただきありがとうございました',
          ];
    videos.push({
      key: `v${i}`,
      language,
      filename: `clip_${String(i).padStart(4, '0')}.mp4`,
      about: !e
        ? ''
        : language === 'en'
          ? `Our ${e.en} with the family. Filmed by ${person}.`
          : `家族で${e.ja}に行きました。撮影は${person}さん。`,
      people: e ? [person] : [],
      scenes: [
        { background: backgrounds[0]!, screen: title, captions: captions[0]! },
        { background: backgrounds[1]!, captions: captions[1]! },
        {
          background: backgrounds[2]!,
          screen: { text: code, size: CODE_SIZE, lang: 'en' },
          captions: captions[2]!,
        },
      ],
      subject,
      place,
      event,
      code,
    });
  }
  return videos;
}

/** Relevance of a one- or two-part query: 2 when every part holds, 1 when one of two does. */
function graded(
  videos: EvalVideo[],
  lang: Lang,
  parts: ((v: EvalVideo) => boolean)[],
): Map<string, number> {
  const out = new Map<string, number>();
  for (const v of videos) {
    if (v.language !== lang) continue;
    const hits = parts.filter((f) => f(v)).length;
    if (hits === parts.length) out.set(v.key, 2);
    else if (hits > 0 && parts.length > 1) out.set(v.key, 1);
  }
  return out;
}

/** A subject's name misspelt (two letters swapped), as typed in a hurry. */
const typo = (word: string): string =>
  word.length > 4 ? word.slice(0, 2) + word[3] + word[2] + word.slice(4) : `${word}s`;

export function buildEvalSet(opts: { videoCount?: number; japaneseOnScreen?: boolean } = {}): {
  videos: EvalVideo[];
  queries: EvalQuery[];
} {
  const japaneseOnScreen = opts.japaneseOnScreen ?? true;
  const videos = makeVideos(opts.videoCount ?? 60, japaneseOnScreen);
  const queries: EvalQuery[] = [];
  const add = (q: EvalQuery): void => {
    if (q.relevant.size > 0) queries.push(q);
  };
  /** A query judged within its language by `graded`. */
  const ask = (
    text: string,
    kind: string,
    channel: Channel,
    lang: Lang,
    parts: ((v: EvalVideo) => boolean)[],
  ): void => add({ text, kind, channel, lang, relevant: graded(videos, lang, parts) });
  const isSubject = (n: number) => (v: EvalVideo) => v.subject === n;
  const isPlace = (n: number) => (v: EvalVideo) => v.place === n;
  const isEvent = (n: number) => (v: EvalVideo) => v.event === n;

  // On screen only: exact codes (the keyword index's home ground) and the place's title card.
  for (const v of videos.filter((_, i) => i % 5 === 0)) {
    add({
      text: v.code,
      kind: 'code',
      channel: 'on-screen',
      lang: 'any',
      relevant: new Map([[v.key, 2]]),
    });
  }
  for (const [i, p] of PLACES.entries()) {
    ask(p.en, 'place', 'on-screen', 'en', [isPlace(i)]);
    if (japaneseOnScreen) ask(p.ja, 'place', 'on-screen', 'ja', [isPlace(i)]);
  }
  // Captions only: the subject, as written and misspelt.
  for (const [i, s] of SUBJECTS.entries()) {
    ask(s.en, 'subject', 'captions', 'en', [isSubject(i)]);
    ask(typo(s.en), 'subject typo', 'captions', 'en', [isSubject(i)]);
    ask(`${s.ja}の動画`, 'subject', 'captions', 'ja', [isSubject(i)]);
  }
  // Uploader context only: the occasion, and who filmed it.
  for (const [i, e] of EVENTS.entries()) {
    ask(e.en, 'occasion', 'context', 'en', [isEvent(i)]);
    ask(e.ja, 'occasion', 'context', 'ja', [isEvent(i)]);
  }
  for (const person of PEOPLE) {
    const rel = new Map(
      videos.filter((v) => v.people.includes(person)).map((v) => [v.key, 2] as const),
    );
    add({ text: person, kind: 'person', channel: 'context', lang: 'any', relevant: rel });
  }
  // Two sources at once: subject (captions) with place (on screen) or occasion (context).
  const en = videos.filter((v) => v.language === 'en');
  const ja = videos.filter((v) => v.language === 'ja');
  for (const v of en.filter((_, i) => i % 3 === 0)) {
    const s = SUBJECTS[v.subject]!;
    const p = PLACES[v.place]!;
    const parts = [isSubject(v.subject), isPlace(v.place)];
    ask(`${s.en} at the ${p.en}`, 'subject+place', 'mixed', 'en', parts);
    ask(`${s.en} ${p.variant}`, 'subject+place variant', 'mixed', 'en', parts);
  }
  for (const v of ja.filter((x) => x.event !== undefined).slice(0, 10)) {
    const s = SUBJECTS[v.subject]!;
    const p = PLACES[v.place]!;
    const e = EVENTS[v.event!]!;
    ask(`${p.ja}にいる${s.ja}`, 'subject+place', 'mixed', 'ja', [
      isSubject(v.subject),
      isPlace(v.place),
    ]);
    ask(`${e.ja}の${s.ja}`, 'subject+occasion', 'mixed', 'ja', [
      isSubject(v.subject),
      isEvent(v.event!),
    ]);
  }
  for (const v of en.filter((x, i) => x.event !== undefined && i % 3 === 1).slice(0, 10)) {
    const s = SUBJECTS[v.subject]!;
    const e = EVENTS[v.event!]!;
    ask(`${s.en} at the ${e.en}`, 'subject+occasion', 'mixed', 'en', [
      isSubject(v.subject),
      isEvent(v.event!),
    ]);
  }
  return { videos, queries };
}
