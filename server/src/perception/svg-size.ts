// The size an SVG is rasterised at, bounded whatever it declares: a 400-byte SVG declaring
// 16,000 x 16,000 px with a blur made librsvg allocate gigabytes. The root element's width and
// height are rewritten to fit maxSide (aspect kept) and a viewBox is added when there was none,
// so the drawing scales instead of being clipped. Works on the sanitiser's output (one root tag).

/** CSS pixels per unit, as librsvg converts them (96 dpi; em and ex at a 16 px font). */
const UNIT_PX: Record<string, number> = {
  '': 1,
  px: 1,
  in: 96,
  cm: 96 / 2.54,
  mm: 9.6 / 2.54,
  pt: 96 / 72,
  pc: 16,
  em: 16,
  ex: 8,
};

/** Used when the SVG declares neither a size nor a viewBox. */
const DEFAULT_SIDE = 512;

function length(value: string | undefined): number | undefined {
  const m = /^\s*(\d*\.?\d+(?:e[+-]?\d+)?)\s*([a-z]*)\s*$/i.exec(value ?? '');
  const unit = UNIT_PX[(m?.[2] ?? '').toLowerCase()];
  const n = m && unit !== undefined ? Number(m[1]) * unit : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

function viewBox(value: string | undefined): [number, number, number, number] | undefined {
  const parts = (value ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (parts.length !== 4 || !parts.every(Number.isFinite)) return undefined;
  return parts[2]! > 0 && parts[3]! > 0 ? (parts as [number, number, number, number]) : undefined;
}

/** The SVG text with its root's width, height and viewBox set so neither side exceeds maxSide. */
export function boundSvgSize(svg: string, maxSide: number): string {
  const start = svg.indexOf('<svg');
  const end = start < 0 ? -1 : svg.indexOf('>', start);
  if (end < 0) throw new Error('the SVG has no root element');
  // The sanitiser writes name="value" pairs; a root tag this long is not a drawing's.
  if (end - start > 64 * 1024) throw new Error('the SVG root element is too long');
  const selfClosing = svg[end - 1] === '/';
  const tag = svg.slice(start + 4, selfClosing ? end - 1 : end);
  const attrs = new Map<string, string>();
  for (const m of tag.matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    attrs.set(m[1]!, m[2] ?? m[3] ?? '');
  }
  const box = viewBox(attrs.get('viewBox'));
  const ratio = box ? box[2] / box[3] : undefined;
  let w = length(attrs.get('width'));
  let h = length(attrs.get('height'));
  if (w === undefined && h !== undefined) w = ratio ? h * ratio : h;
  if (h === undefined && w !== undefined) h = ratio ? w / ratio : w;
  w ??= box?.[2] ?? DEFAULT_SIDE;
  h ??= box?.[3] ?? DEFAULT_SIDE;
  const scale = Math.min(1, maxSide / Math.max(w, h));
  const sized: [string, string][] = [
    ['width', String(Math.max(1, Math.round(w * scale)))],
    ['height', String(Math.max(1, Math.round(h * scale)))],
    ['viewBox', box ? box.join(' ') : `0 0 ${w} ${h}`],
  ];
  for (const [k] of sized) attrs.delete(k);
  const rebuilt = [...sized, ...attrs]
    .map(([k, v]) => ` ${k}="${v.replace(/"/g, '&quot;')}"`)
    .join('');
  return `${svg.slice(0, start)}<svg${rebuilt}${selfClosing ? '/' : ''}${svg.slice(end)}`;
}
