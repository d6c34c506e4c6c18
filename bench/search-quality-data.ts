// The labelled evaluation set of bench/search-quality.ts: generated videos whose content is
// known (on-screen text, captions, uploader context; English and Japanese) and queries with
// graded relevance (2: the thing asked for, 1: same subject elsewhere).

export interface EvalVideo {
  key: string;
  language: 'en' | 'ja';
  title: string;
  about: string;
  people: string[];
  /** What the pipeline would measure per scene: captions and on-screen text. */
  scenes: { onScreen: string; captions: string }[];
  subject: number;
  place: number;
  code: string;
}

export interface EvalQuery {
  text: string;
  kind: string;
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
  { en: 'beach', ja: '海岸', us: 'seaside' },
  { en: 'park', ja: '公園', us: 'parks' },
  { en: 'kitchen', ja: '台所', us: 'kitchens' },
  { en: 'station', ja: '駅', us: 'stations' },
  { en: 'harbour', ja: '港', us: 'harbor' },
  { en: 'stadium', ja: 'スタジアム', us: 'stadiums' },
  { en: 'mountain', ja: '山', us: 'mountains' },
  { en: 'market', ja: '市場', us: 'markets' },
];
const ACTIONS = [
  { en: 'running', ja: '走っている' },
  { en: 'eating lunch', ja: '昼ご飯を食べている' },
  { en: 'performing', ja: '演奏している' },
  { en: 'waiting', ja: '待っている' },
  { en: 'celebrating', ja: 'お祝いしている' },
];
const PEOPLE = [
  'Maria Lopez',
  'Kenji Sato',
  'Aiko Tanaka',
  'David Brown',
  'Lena Fischer',
  'Omar Haddad',
];

/** Deterministic pseudo-random numbers (LCG) so every run evaluates the same set. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

export function buildEvalSet(videoCount = 60): { videos: EvalVideo[]; queries: EvalQuery[] } {
  const rand = rng(42);
  const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)]!;
  const videos: EvalVideo[] = [];
  for (let i = 0; i < videoCount; i++) {
    const subject = i % SUBJECTS.length;
    const place = Math.floor(rand() * PLACES.length);
    const s = SUBJECTS[subject]!;
    const p = PLACES[place]!;
    const a = pick(ACTIONS);
    const person = pick(PEOPLE);
    const code = `${p.en.slice(0, 3).toUpperCase()}-${1000 + i * 37}`;
    const language = i % 3 === 0 ? 'ja' : 'en';
    if (language === 'en') {
      videos.push({
        key: `v${i}`,
        language,
        subject,
        place,
        code,
        title: `${s.en} at the ${p.en}`,
        about: `The ${s.en} ${a.en} at the ${p.en}. Filmed by ${person}.`,
        people: [person],
        scenes: [
          { onScreen: `${code} ${p.en.toUpperCase()}`, captions: `welcome to the ${p.en}` },
          { onScreen: '', captions: `look at the ${s.en} ${a.en} over there` },
          { onScreen: '', captions: 'what a day, thank you for watching' },
        ],
      });
    } else {
      videos.push({
        key: `v${i}`,
        language,
        subject,
        place,
        code,
        title: `${p.ja}の${s.ja}`,
        about: `${p.ja}で${s.ja}が${a.ja}様子です。撮影は${person}さん。`,
        people: [person],
        scenes: [
          { onScreen: code, captions: `${p.ja}に来ました` },
          { onScreen: '', captions: `あそこの${s.ja}が${a.ja}のを見てください` },
          { onScreen: '', captions: 'ご覧いただきありがとうございました' },
        ],
      });
    }
  }

  const grade = (subject: number, place: number | undefined): Map<string, number> =>
    new Map(
      videos
        .filter((v) => v.subject === subject)
        .map((v) => [v.key, place === undefined || v.place === place ? 2 : 1] as const),
    );
  const queries: EvalQuery[] = [];
  // Exact codes read on screen: the keyword index's home ground.
  for (const v of videos.filter((_, i) => i % 5 === 0)) {
    queries.push({ text: v.code, kind: 'on-screen code', relevant: new Map([[v.key, 2]]) });
  }
  // Subject and place, in English, as written and with spelling variants (harbor, plurals).
  for (const v of videos.filter((x, i) => x.language === 'en' && i % 2 === 0).slice(0, 14)) {
    const s = SUBJECTS[v.subject]!;
    const p = PLACES[v.place]!;
    queries.push({
      text: `${s.en} at the ${p.en}`,
      kind: 'en subject+place',
      relevant: grade(v.subject, v.place),
    });
    queries.push({
      text: `${s.en} ${p.us}`,
      kind: 'en variant',
      relevant: grade(v.subject, v.place),
    });
  }
  // Japanese phrasing the segmenter cuts differently from the documents.
  for (const v of videos.filter((x) => x.language === 'ja').slice(0, 12)) {
    const s = SUBJECTS[v.subject]!;
    const p = PLACES[v.place]!;
    queries.push({
      text: `${p.ja}にいる${s.ja}`,
      kind: 'ja subject+place',
      relevant: grade(v.subject, v.place),
    });
  }
  // Who filmed it.
  for (const person of PEOPLE) {
    const rel = new Map(
      videos.filter((v) => v.people.includes(person)).map((v) => [v.key, 2] as const),
    );
    queries.push({ text: `filmed by ${person}`, kind: 'person', relevant: rel });
  }
  // Subject only, with typos.
  for (const [i, s] of SUBJECTS.entries()) {
    const typo =
      s.en.length > 4 ? s.en.slice(0, 2) + s.en[3] + s.en[2] + s.en.slice(4) : s.en + 's';
    queries.push({ text: typo, kind: 'en typo', relevant: grade(i, undefined) });
  }
  return { videos, queries };
}
