// A strict SVG sanitiser for person images: the SVG is parsed and rebuilt from an allowlist of
// drawing elements and presentation attributes, so nothing that can run script (script,
// foreignObject, event handlers, javascript: or external references, style sheets) survives.
// Files are also served with a sandboxing Content-Security-Policy; this is the first fence.

export class SvgRejected extends Error {}

const ELEMENTS = new Set(
  (
    'svg g defs title desc path rect circle ellipse line polyline polygon text tspan textPath ' +
    'linearGradient radialGradient stop clipPath mask pattern symbol use image marker ' +
    'filter feGaussianBlur feOffset feBlend feColorMatrix feMerge feMergeNode feFlood feComposite'
  ).split(' '),
);
const TEXT_ELEMENTS = new Set(['text', 'tspan', 'textPath', 'title', 'desc']);

const ATTRIBUTES = new Set(
  (
    'id class x y x1 y1 x2 y2 cx cy r rx ry fx fy fr width height d points pathLength ' +
    'fill fill-opacity fill-rule stroke stroke-width stroke-opacity stroke-linecap ' +
    'stroke-linejoin stroke-dasharray stroke-dashoffset stroke-miterlimit opacity transform ' +
    'viewBox preserveAspectRatio xmlns xmlns:xlink version offset stop-color stop-opacity ' +
    'gradientUnits gradientTransform spreadMethod clip-path clip-rule mask font-family ' +
    'font-size font-weight font-style text-anchor dominant-baseline letter-spacing dx dy rotate ' +
    'patternUnits patternContentUnits patternTransform maskUnits maskContentUnits clipPathUnits ' +
    'markerWidth markerHeight markerUnits refX refY orient marker-start marker-mid marker-end ' +
    'visibility display href xlink:href color filter stdDeviation in in2 result mode values ' +
    'type operator k1 k2 k3 k4 flood-color flood-opacity filterUnits primitiveUnits ' +
    'vector-effect shape-rendering image-rendering paint-order startOffset'
  ).split(' '),
);

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code =
        ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      if (!Number.isFinite(code) || code > 0x10ffff)
        throw new SvgRejected('bad character reference');
      return String.fromCodePoint(code);
    }
    const named = ENTITIES[ref];
    if (named === undefined) throw new SvgRejected(`unknown entity ${whole}`);
    return named;
  });
}

function escape(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Values that could fetch or run something: only same-document refs and inline raster data. */
function safeValue(name: string, value: string, element: string): boolean {
  // Browsers ignore whitespace and control characters inside a URL scheme ("java\tscript:").
  // eslint-disable-next-line no-control-regex
  const squashed = value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
  if (
    /(javascript|vbscript|data):/.test(squashed) &&
    !(name.endsWith('href') && element === 'image')
  ) {
    return false;
  }
  // url() only for same-document references such as fill="url(#gradient)".
  if (/url\((?!['"]?#)/.test(squashed)) return false;
  if (name === 'href' || name === 'xlink:href') {
    if (element === 'image')
      return /^data:image\/(png|jpeg);base64,[a-z0-9+/=]*$/i.test(value.trim());
    return value.trim().startsWith('#');
  }
  return true;
}

const ATTR = /\s*([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;

/** Answers the sanitised SVG text; throws SvgRejected when the input is not a plain SVG. */
export function sanitiseSvg(input: string): string {
  const src = input.replace(/^\uFEFF/, '');
  const out: string[] = [];
  const open: { name: string; kept: boolean }[] = [];
  let sawRoot = false;
  let i = 0;
  const skipTo = (end: string): void => {
    const at = src.indexOf(end, i);
    if (at < 0) throw new SvgRejected('unterminated markup');
    i = at + end.length;
  };
  const keeping = (): boolean => open.every((e) => e.kept);
  while (i < src.length) {
    if (src[i] !== '<') {
      const next = src.indexOf('<', i);
      const text = src.slice(i, next < 0 ? src.length : next);
      i = next < 0 ? src.length : next;
      const top = open[open.length - 1];
      if (top && keeping() && TEXT_ELEMENTS.has(top.name)) out.push(escape(decode(text)));
      else if (text.trim() !== '' && !top) throw new SvgRejected('text outside the svg element');
      continue;
    }
    if (src.startsWith('<!--', i)) skipTo('-->');
    else if (src.startsWith('<![CDATA[', i)) skipTo(']]>');
    else if (src.startsWith('<!', i))
      throw new SvgRejected('DOCTYPE and entity declarations are not accepted');
    else if (src.startsWith('<?', i)) skipTo('?>');
    else if (src.startsWith('</', i)) {
      const m = /^<\/([^\s>]+)\s*>/.exec(src.slice(i, i + 256));
      const top = open.pop();
      if (!m || !top || top.name !== m[1]) throw new SvgRejected('mismatched end tag');
      if (top.kept && keeping()) out.push(`</${top.name}>`);
      i += m[0].length;
    } else {
      const m = /^<([A-Za-z][\w:.-]*)/.exec(src.slice(i, i + 256));
      if (!m) throw new SvgRejected('malformed tag');
      const name = m[1]!;
      if (!sawRoot && name !== 'svg') throw new SvgRejected('the root element must be svg');
      if (open.length === 0 && sawRoot) throw new SvgRejected('more than one root element');
      sawRoot = true;
      i += m[0].length;
      const attrs: string[] = [];
      ATTR.lastIndex = i;
      let a: RegExpExecArray | null;
      while ((a = ATTR.exec(src))) {
        i = ATTR.lastIndex;
        const attr = a[1]!;
        const value = decode(a[2] ?? a[3] ?? '');
        if (ATTRIBUTES.has(attr) && safeValue(attr, value, name))
          attrs.push(` ${attr}="${escape(value)}"`);
      }
      const close = /^\s*(\/?)>/.exec(src.slice(i, i + 64));
      if (!close) throw new SvgRejected('malformed tag');
      i += close[0].length;
      const kept = ELEMENTS.has(name);
      if (kept && keeping()) {
        if (name === 'svg' && open.length === 0 && !attrs.some((x) => x.startsWith(' xmlns='))) {
          attrs.unshift(' xmlns="http://www.w3.org/2000/svg"');
        }
        out.push(`<${name}${attrs.join('')}${close[1] ? '/' : ''}>`);
      }
      if (!close[1]) open.push({ name, kept });
    }
  }
  if (!sawRoot || open.length > 0) throw new SvgRejected('the SVG is incomplete');
  return out.join('');
}
