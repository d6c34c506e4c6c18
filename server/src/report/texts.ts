// The report's words in English and Japanese (the video's output language; other languages get
// English labels around content that is already in their language).

export interface ReportTexts {
  htmlLang: string;
  heading: string;
  facts: string;
  filename: string;
  recorded: string;
  uploaded: string;
  length: string;
  resolution: string;
  summary: string;
  tags: string;
  noTags: string;
  instruction: string;
  answer: string;
  matched: (n: number) => string;
  noMatch: string;
  written: string;
  citedScenes: string;
  scenes: string;
  scene: (n: number) => string;
  number: string;
  image: string;
  time: string;
  description: string;
  sceneCaptions: string;
  captions: string;
  noCaptions: string;
  captionsCut: (shown: number, total: number) => string;
  unknown: string;
  generated: (when: string) => string;
  open: string;
  close: string;
}

const en: ReportTexts = {
  htmlLang: 'en',
  heading: 'Video report',
  facts: 'Facts',
  filename: 'File name',
  recorded: 'Recorded',
  uploaded: 'Uploaded',
  length: 'Length',
  resolution: 'Resolution',
  summary: 'Summary',
  tags: 'Tags',
  noTags: 'No tags',
  instruction: 'Instruction',
  answer: 'Answer',
  matched: (n) =>
    n === 1
      ? 'One scene matches this instruction. It is quoted below with its time.'
      : `${n} scenes match this instruction. They are quoted below with their times.`,
  noMatch:
    'No scene matches the words of this instruction. Every scene is listed in the table below.',
  written:
    'Written by the AI model from the scene descriptions and captions only. Scene numbers refer to the scene table.',
  citedScenes: 'Scenes cited',
  scenes: 'Scenes',
  scene: (n) => `Scene ${n}`,
  number: 'No.',
  image: 'Image',
  time: 'Time',
  description: 'Description',
  sceneCaptions: 'Captions',
  captions: 'Captions',
  noCaptions: 'This video has no captions.',
  captionsCut: (shown, total) => `The first ${shown} of ${total} captions are shown.`,
  unknown: 'Unknown',
  generated: (when) => `Generated ${when} (UTC)`,
  open: '“',
  close: '”',
};

const ja: ReportTexts = {
  htmlLang: 'ja',
  heading: '動画レポート',
  facts: '基本情報',
  filename: 'ファイル名',
  recorded: '撮影日',
  uploaded: 'アップロード日時',
  length: '長さ',
  resolution: '解像度',
  summary: '概要',
  tags: 'タグ',
  noTags: 'タグはありません',
  instruction: '指示',
  answer: '回答',
  matched: (n) => `この指示に合うシーンが${n}件見つかりました。時刻とともに以下に引用します。`,
  noMatch: 'この指示の言葉に合うシーンは見つかりませんでした。すべてのシーンを下の表に示します。',
  written:
    'この回答は、シーンの説明と字幕だけをもとに AI モデルが作成しました。シーン番号は下のシーン一覧の番号です。',
  citedScenes: '引用したシーン',
  scenes: 'シーン一覧',
  scene: (n) => `シーン ${n}`,
  number: '番号',
  image: '画像',
  time: '時刻',
  description: '説明',
  sceneCaptions: '字幕',
  captions: '字幕',
  noCaptions: 'この動画には字幕がありません。',
  captionsCut: (shown, total) => `全${total}件のうち最初の${shown}件の字幕を表示しています。`,
  unknown: '不明',
  generated: (when) => `作成日時 ${when}（UTC）`,
  open: '「',
  close: '」',
};

export function reportTexts(language: string): ReportTexts {
  return language.toLowerCase().startsWith('ja') ? ja : en;
}
