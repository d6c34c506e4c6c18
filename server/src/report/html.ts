// The report page: one self-contained HTML document (inline CSS, images as data: URIs), so it
// opens offline and prints. Every inserted text goes through escapeHtml.
import { REPORT_CSS } from './styles.ts';
import { reportTexts, type ReportTexts } from './texts.ts';

export interface ReportScene {
  index: number;
  startTime: string;
  endTime: string;
  description: string;
  captions: string;
  /** data: URI of a small JPEG, or null. */
  image: string | null;
}

export type ReportAnswer =
  { kind: 'quotes'; scenes: number[] } | { kind: 'written'; text: string; scenes: number[] };

export interface ReportModel {
  language: string;
  title: string;
  filename: string;
  /** Recording date as YYYY/MM/DD, or null. */
  recorded: string | null;
  /** YYYY/MM/DD HH:mm (UTC). */
  uploaded: string;
  /** HH:mm:ss, or null. */
  length: string | null;
  resolution: string | null;
  summary: string;
  tags: string[];
  instruction: string;
  answer: ReportAnswer;
  scenes: ReportScene[];
  captions: { startTime: string; endTime: string; text: string }[];
  captionsTotal: number;
  generated: string;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Only our own base64 image URIs are placed in src; anything else is dropped. */
function safeImage(uri: string | null): string | null {
  return uri && /^data:image\/(jpeg|png|webp);base64,[A-Za-z0-9+/=]+$/.test(uri) ? uri : null;
}

function img(uri: string | null, alt: string): string {
  const src = safeImage(uri);
  return src ? `<img src="${src}" alt="${escapeHtml(alt)}" loading="lazy">` : '';
}

function facts(m: ReportModel, t: ReportTexts): string {
  const row = (label: string, value: string | null): string =>
    `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value ?? t.unknown)}</dd>`;
  return `<dl class="facts">${[
    row(t.filename, m.filename),
    row(t.recorded, m.recorded),
    row(t.uploaded, m.uploaded),
    row(t.length, m.length),
    row(t.resolution, m.resolution),
  ].join('')}</dl>`;
}

function quote(s: ReportScene, t: ReportTexts): string {
  const said = s.captions.trim()
    ? `<blockquote>${escapeHtml(t.open + s.captions.trim() + t.close)}</blockquote>`
    : '';
  return (
    `<div class="quote">${img(s.image, t.scene(s.index))}<div>` +
    `<h3>${escapeHtml(`${t.scene(s.index)} · ${s.startTime} – ${s.endTime}`)}</h3>` +
    `<blockquote>${escapeHtml(s.description)}</blockquote>${said}</div></div>`
  );
}

function answer(m: ReportModel, t: ReportTexts): string {
  const byIndex = new Map(m.scenes.map((s) => [s.index, s]));
  const quoted = m.answer.scenes
    .map((i) => byIndex.get(i))
    .filter((s): s is ReportScene => !!s)
    .sort((a, b) => a.index - b.index)
    .map((s) => quote(s, t))
    .join('');
  const head = `<p class="instruction">${escapeHtml(m.instruction)}</p>`;
  if (m.answer.kind === 'written') {
    const paragraphs = m.answer.text
      .split(/\n\s*\n/)
      .filter((p) => p.trim())
      .map((p) => `<p>${escapeHtml(p.trim())}</p>`)
      .join('');
    const cited = quoted ? `<h3>${escapeHtml(t.citedScenes)}</h3>${quoted}` : '';
    return `${head}<div class="answer">${paragraphs}</div><p class="muted">${escapeHtml(t.written)}</p>${cited}`;
  }
  const intro = m.answer.scenes.length > 0 ? t.matched(m.answer.scenes.length) : t.noMatch;
  return `${head}<p>${escapeHtml(intro)}</p>${quoted}`;
}

function sceneTable(m: ReportModel, t: ReportTexts): string {
  const rows = m.scenes
    .map(
      (s) =>
        `<tr id="scene-${s.index}"><td class="num">${s.index}</td><td>${img(s.image, t.scene(s.index))}</td>` +
        `<td class="time">${escapeHtml(s.startTime)}<br>${escapeHtml(s.endTime)}</td>` +
        `<td>${escapeHtml(s.description)}</td><td>${escapeHtml(s.captions)}</td></tr>`,
    )
    .join('');
  const head = [t.number, t.image, t.time, t.description, t.sceneCaptions]
    .map((h) => `<th>${escapeHtml(h)}</th>`)
    .join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

function captions(m: ReportModel, t: ReportTexts): string {
  if (m.captions.length === 0) return `<p class="muted">${escapeHtml(t.noCaptions)}</p>`;
  const items = m.captions
    .map(
      (c) => `<li><time>${escapeHtml(c.startTime)}</time><span>${escapeHtml(c.text)}</span></li>`,
    )
    .join('');
  const cut =
    m.captionsTotal > m.captions.length
      ? `<p class="muted">${escapeHtml(t.captionsCut(m.captions.length, m.captionsTotal))}</p>`
      : '';
  return `<ol class="captions">${items}</ol>${cut}`;
}

export function renderReport(m: ReportModel): string {
  const t = reportTexts(m.language);
  const tags =
    m.tags.length > 0
      ? `<ul class="tags">${m.tags.map((tag) => `<li>${escapeHtml(tag)}</li>`).join('')}</ul>`
      : `<p class="muted">${escapeHtml(t.noTags)}</p>`;
  const section = (title: string, body: string): string =>
    `<section><h2>${escapeHtml(title)}</h2>${body}</section>`;
  return (
    `<!doctype html><html lang="${t.htmlLang}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="referrer" content="no-referrer">` +
    `<title>${escapeHtml(`${m.title} – ${t.heading}`)}</title><style>${REPORT_CSS}</style></head>` +
    `<body><main><p class="kicker">${escapeHtml(t.heading)}</p><h1>${escapeHtml(m.title)}</h1>` +
    section(t.facts, facts(m, t)) +
    section(t.summary, `<p>${escapeHtml(m.summary || t.unknown)}</p>`) +
    section(t.tags, tags) +
    section(t.answer, answer(m, t)) +
    section(t.scenes, sceneTable(m, t)) +
    section(t.captions, captions(m, t)) +
    `<footer>${escapeHtml(t.generated(m.generated))}</footer></main></body></html>`
  );
}
