// A strict SVG sanitiser for person images: the SVG is parsed and rebuilt from an allowlist of
// drawing elements and presentation attributes. Anything that can run script or fetch (script,
// foreignObject, event handlers, animation, javascript: or external references, a nested svg)
// refuses the file with a reason; other unknown elements and attributes (editor metadata, style)
// are dropped. One pass over the text, with caps on depth and element count, so a hostile file
// costs time in proportion to its size. Files are also served with a sandboxing
// Content-Security-Policy; this is the first fence. Runs in the image worker (image-pool.ts).
import { IMAGE_MAX_BYTES } from '../../../../src/config/limits.ts';
import { checkEmbeddedImage, ImageRejected } from './image-limits.ts';

export class SvgRejected extends ImageRejected {}

const malformed = (what: string): SvgRejected =>
  new SvgRejected(`The SVG cannot be used: ${what}.`);

/** Deepest nesting of elements; real drawings stay far below it. */
export const SVG_MAX_DEPTH = 100;
/** Most elements in one file: plenty for a portrait, far below what stalls a renderer. */
export const SVG_MAX_ELEMENTS = 20_000;

/** Elements that run script, embed other documents or change attributes over time. */
const ACTIVE = new Set(
  (
    'script foreignObject iframe embed object audio video canvas handler listener ' +
    'animate animateMotion animateTransform set discard'
  )
    .toLowerCase()
    .split(' '),
);

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
      if (!Number.isFinite(code) || code > 0x10ffff) throw malformed('bad character reference');
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

const SCRIPT_URL = 'The SVG contains a script link, which is not allowed.';
const EXTERNAL = 'The SVG refers to another file or address, which is not allowed.';

/**
 * Refuses values that could run or fetch something: only same-document references and inline
 * PNG/JPEG data (checked like an uploaded picture) are allowed.
 */
function checkValue(name: string, value: string, element: string): void {
  // Browsers ignore whitespace and control characters inside a URL scheme ("java\tscript:").
  // eslint-disable-next-line no-control-regex
  const squashed = value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
  if (/(javascript|vbscript):/.test(squashed)) throw new SvgRejected(SCRIPT_URL);
  // url() only for same-document references such as fill="url(#gradient)".
  if (/url\((?!['"]?#)/.test(squashed)) throw new SvgRejected(EXTERNAL);
  if (name === 'href' || name === 'xlink:href') {
    const raster = /^data:image\/(png|jpeg);base64,([a-z0-9+/=]*)$/i.exec(value.trim());
    if (element === 'image' && raster) {
      checkEmbeddedImage(Buffer.from(raster[2]!, 'base64'));
      return;
    }
    if (!value.trim().startsWith('#')) throw new SvgRejected(EXTERNAL);
  } else if (/data:/.test(squashed)) {
    throw new SvgRejected(EXTERNAL);
  }
}

const ATTR = /\s*([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;

/**
 * Answers the sanitised SVG text; throws SvgRejected when the input is not a plain SVG, or when
 * the rebuilt text would exceed maxBytes (escaping can grow it: each `'` becomes `&#39;`).
 */
export function sanitiseSvg(input: string, maxBytes = IMAGE_MAX_BYTES): string {
  const src = input.replace(/^\uFEFF/, '');
  const out: string[] = [];
  let bytes = 0;
  const emit = (text: string): void => {
    bytes += Buffer.byteLength(text);
    if (bytes > maxBytes) {
      throw new SvgRejected(
        `The SVG would be larger than ${maxBytes / (1024 * 1024)} MB once cleaned ` +
          '(its quotes and brackets are written out as character codes).',
      );
    }
    out.push(text);
  };
  const open: { name: string; kept: boolean }[] = [];
  // Open elements that are dropped: their content is dropped too (kept while this is 0).
  let dropping = 0;
  let elements = 0;
  let sawRoot = false;
  let i = 0;
  const skipTo = (end: string): void => {
    const at = src.indexOf(end, i);
    if (at < 0) throw malformed('unterminated markup');
    i = at + end.length;
  };
  while (i < src.length) {
    if (src[i] !== '<') {
      const next = src.indexOf('<', i);
      const text = src.slice(i, next < 0 ? src.length : next);
      i = next < 0 ? src.length : next;
      const top = open[open.length - 1];
      if (top && dropping === 0 && TEXT_ELEMENTS.has(top.name)) {
        // In slices, so a text that grows past the cap is refused before it is all escaped.
        const plain = decode(text);
        for (let at = 0; at < plain.length; at += 64 * 1024) {
          emit(escape(plain.slice(at, at + 64 * 1024)));
        }
      } else if (text.trim() !== '' && !top) throw malformed('text outside the svg element');
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
      if (!m || !top || top.name !== m[1]) throw malformed('mismatched end tag');
      if (!top.kept) dropping--;
      else if (dropping === 0) emit(`</${top.name}>`);
      i += m[0].length;
    } else {
      const m = /^<([A-Za-z][\w:.-]*)/.exec(src.slice(i, i + 256));
      if (!m) throw malformed('malformed tag');
      const name = m[1]!;
      if (!sawRoot && name !== 'svg') throw malformed('the root element must be svg');
      if (open.length === 0 && sawRoot) throw malformed('more than one root element');
      if (sawRoot && name.toLowerCase() === 'svg') {
        throw new SvgRejected('The SVG contains another SVG inside it, which is not allowed.');
      }
      if (ACTIVE.has(name.toLowerCase().replace(/^.*:/, ''))) {
        throw new SvgRejected(`The SVG contains ${name} content, which is not allowed.`);
      }
      if (++elements > SVG_MAX_ELEMENTS) {
        throw new SvgRejected(`The SVG has more than ${SVG_MAX_ELEMENTS} elements.`);
      }
      if (open.length >= SVG_MAX_DEPTH) {
        throw new SvgRejected(`The SVG nests elements more than ${SVG_MAX_DEPTH} deep.`);
      }
      sawRoot = true;
      i += m[0].length;
      const attrs: string[] = [];
      ATTR.lastIndex = i;
      let a: RegExpExecArray | null;
      while ((a = ATTR.exec(src))) {
        i = ATTR.lastIndex;
        const attr = a[1]!;
        const value = decode(a[2] ?? a[3] ?? '');
        if (/^on/i.test(attr)) {
          throw new SvgRejected(
            'The SVG contains an event handler (script), which is not allowed.',
          );
        }
        checkValue(attr, value, name);
        if (ATTRIBUTES.has(attr)) attrs.push(` ${attr}="${escape(value)}"`);
      }
      const close = /^\s*(\/?)>/.exec(src.slice(i, i + 64));
      if (!close) throw malformed('malformed tag');
      i += close[0].length;
      const kept = ELEMENTS.has(name);
      if (kept && dropping === 0) {
        if (name === 'svg' && open.length === 0 && !attrs.some((x) => x.startsWith(' xmlns='))) {
          attrs.unshift(' xmlns="http://www.w3.org/2000/svg"');
        }
        emit(`<${name}${attrs.join('')}${close[1] ? '/' : ''}>`);
      }
      if (!close[1]) {
        open.push({ name, kept });
        if (!kept) dropping++;
      }
    }
  }
  if (!sawRoot || open.length > 0) throw malformed('the SVG is incomplete');
  return out.join('');
}
