// The local provider's sentence templates, one set per output language. Each phrase states a
// measurement or repeats what the uploader wrote; none guesses at content.

export interface Phrases {
  list(items: string[]): string;
  quote(text: string): string;
  duration(sec: number): string;
  date(iso: string): string;
  brightness(v: number): string;
  motion(v: number): string;
  color(name: string): string;
  titleMentions(keywords: string[]): string;
  titleWithPeople(names: string[]): string;
  titleShows(words: string[]): string;
  overview(o: {
    duration: string;
    size?: string | undefined;
    date?: string | undefined;
    scenes: number;
    avgShotSec: number;
  }): string;
  about(text: string): string;
  people(names: string[]): string;
  captionsMention(keywords: string[]): string;
  noCaptions: string;
  onScreen(text: string): string;
  look(o: { brightness: string; colors: string[]; motion: string }): string;
  scene(o: {
    n: number;
    start: string;
    end: string;
    seconds: string;
    brightness: string;
    colors: string[];
    motion: string;
  }): string;
  sceneCaptions(text: string): string;
  /** Who is in a scene: the people recognised and how many others. */
  scenePeople(names: string[], others: number): string;
  /** Objects seen in a scene, already in this language. */
  sceneObjects(names: string[]): string;
  /** How often the recognised people appear in the video. */
  peopleSeen(names: string[], scenes: number, total: number): string;
  /** A title from who is shown and what: the heading or the uploader's key words. */
  titleOf(people: string[], what: string | undefined): string;
}

const EN_COUNTS = [
  'no',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
];
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function round1(n: number): string {
  return (Math.round(n * 10) / 10).toString();
}

const en: Phrases = {
  list: (items) =>
    items.length <= 1
      ? (items[0] ?? '')
      : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`,
  quote: (t) => `“${t}”`,
  duration(sec) {
    const s = Math.round(sec);
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const parts = [h ? `${h} h` : '', m ? `${m} min` : '', s % 60 || !s ? `${s % 60} s` : ''];
    return parts.filter(Boolean).join(' ');
  },
  date: (iso) => iso.slice(0, 10),
  brightness: (v) => (v < 0.25 ? 'dark' : v < 0.6 ? 'moderately lit' : 'bright'),
  motion: (v) =>
    v < 0.05 ? 'almost no movement' : v < 0.2 ? 'some movement' : 'a lot of movement',
  color: (name) => name,
  titleMentions: (kw) => `Video mentioning ${en.list(kw)}`,
  titleWithPeople: (names) => `Video with ${en.list(names)}`,
  titleShows: (words) => `Video showing ${en.list(words.map(en.quote))}`,
  overview: (o) =>
    `A ${o.duration}${o.size ? ` ${o.size}` : ''} video${o.date ? ` recorded on ${o.date}` : ''}, ` +
    `in ${o.scenes} ${o.scenes === 1 ? 'scene' : 'scenes'} (average shot ${round1(o.avgShotSec)} s).`,
  about: (t) => `The uploader describes it as: ${en.quote(t)}`,
  people: (names) => `People named by the uploader: ${en.list(names)}.`,
  captionsMention: (kw) => `The captions mention ${en.list(kw)}.`,
  noCaptions: 'No captions or speech text were available.',
  onScreen: (t) => `On-screen text reads ${en.quote(t)}.`,
  look: (o) =>
    `The picture is mostly ${o.brightness}` +
    (o.colors.length ? `, dominated by ${en.list(o.colors)}` : '') +
    `, with ${o.motion}.`,
  scene: (o) =>
    `Scene ${o.n}, ${o.start}–${o.end} (${o.seconds} s): ${o.brightness} picture` +
    (o.colors.length ? `, mostly ${en.list(o.colors)}` : '') +
    `, ${o.motion}.`,
  sceneCaptions: (t) => `Captions: ${en.quote(t)}`,
  scenePeople: (names, others) => {
    const n = (k: number): string => EN_COUNTS[k] ?? String(k);
    if (names.length === 0)
      return `${cap(n(others))} ${others === 1 ? 'person is' : 'people are'} in the picture.`;
    const who = `${en.list(names)} ${names.length === 1 ? 'is' : 'are'} in the picture`;
    return others > 0
      ? `${who}, with ${n(others)} other ${others === 1 ? 'person' : 'people'}.`
      : `${who}.`;
  },
  sceneObjects: (names) => `Also in view: ${en.list(names)}.`,
  peopleSeen: (names, scenes, total) =>
    `${en.list(names)} ${names.length === 1 ? 'appears' : 'appear'} in ${scenes} of the ${total} ${total === 1 ? 'scene' : 'scenes'}.`,
  titleOf: (people, what) =>
    people.length && what
      ? `${en.list(people)}: ${what}`
      : people.length
        ? `${en.list(people)} on camera`
        : (what ?? ''),
};

const JA_COLORS: Record<string, string> = {
  red: '赤',
  orange: 'オレンジ',
  yellow: '黄色',
  green: '緑',
  cyan: '水色',
  blue: '青',
  purple: '紫',
  magenta: 'マゼンタ',
  pink: 'ピンク',
  brown: '茶色',
  black: '黒',
  white: '白',
  gray: '灰色',
  grey: '灰色',
};

const ja: Phrases = {
  list: (items) => items.join('、'),
  quote: (t) => `「${t}」`,
  duration(sec) {
    const s = Math.round(sec);
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const parts = [h ? `${h}時間` : '', m ? `${m}分` : '', s % 60 || !s ? `${s % 60}秒` : ''];
    return parts.join('');
  },
  date(iso) {
    const [y, mo, d] = iso.slice(0, 10).split('-').map(Number);
    return y && mo && d ? `${y}年${mo}月${d}日` : iso.slice(0, 10);
  },
  brightness: (v) => (v < 0.25 ? '暗め' : v < 0.6 ? '標準的な明るさ' : '明るめ'),
  motion: (v) =>
    v < 0.05 ? '動きはほとんどありません' : v < 0.2 ? '多少の動きがあります' : '動きが多くあります',
  color: (name) => JA_COLORS[name.toLowerCase()] ?? name,
  titleMentions: (kw) => `${kw.map((k) => `「${k}」`).join('')}に触れた動画`,
  titleWithPeople: (names) => `${ja.list(names)}が登場する動画`,
  titleShows: (words) => `${words.map((w) => `「${w}」`).join('')}が映る動画`,
  overview: (o) =>
    `${o.date ? `${o.date}に撮影された、` : ''}長さ${o.duration}${o.size ? `・${o.size}` : ''}の動画です。` +
    `${o.scenes}つのシーンで構成されています（平均ショット長${round1(o.avgShotSec)}秒）。`,
  about: (t) => `投稿者による説明：${ja.quote(t)}`,
  people: (names) => `投稿者が指定した登場人物：${ja.list(names)}。`,
  captionsMention: (kw) => `字幕には${kw.map((k) => `「${k}」`).join('')}などの言葉が出てきます。`,
  noCaptions: '字幕や音声のテキストはありませんでした。',
  onScreen: (t) => `画面上の文字：${ja.quote(t)}。`,
  look: (o) =>
    `映像は全体的に${o.brightness}で` +
    (o.colors.length ? `、主な色は${ja.list(o.colors)}です。` : 'す。') +
    o.motion +
    '。',
  scene: (o) =>
    `シーン${o.n}（${o.start}〜${o.end}、${o.seconds}秒）：${o.brightness}の映像` +
    (o.colors.length ? `で、主な色は${ja.list(o.colors)}です` : 'です') +
    `。${o.motion}。`,
  sceneCaptions: (t) => `字幕：${ja.quote(t)}`,
  scenePeople: (names, others) =>
    names.length === 0
      ? `${others}人が映っています。`
      : `${ja.list(names)}が映っています${others > 0 ? `（ほかに${others}人）` : ''}。`,
  sceneObjects: (names) => `ほかに映っているもの：${ja.list(names)}。`,
  peopleSeen: (names, scenes, total) =>
    `${ja.list(names)}は${total}シーン中${scenes}シーンに登場します。`,
  titleOf: (people, what) =>
    people.length && what
      ? `${ja.list(people)}：${what}`
      : people.length
        ? `${ja.list(people)}が映る動画`
        : (what ?? ''),
};

const byLanguage: Record<string, Phrases> = { en, ja };

/** Phrases for a language code such as "ja" or "en-US"; English when there is no set. */
export function phrasesFor(language: string): Phrases {
  return byLanguage[language.toLowerCase().split(/[-_]/)[0] ?? 'en'] ?? en;
}
