// The name a download is saved under: the video's title (in the language it was analysed in),
// else its file name without the extension, made safe for every file system.

const MAX_NAME_CHARS = 120;

/** Characters Windows, macOS or Linux refuse in a name, and control characters. */
// eslint-disable-next-line no-control-regex -- control characters are what it removes
const UNSAFE = /[\u0000-\u001f\u007f<>:"/\\|?*]+/g;

export function downloadName(title: string | null, filename: string, ext: string): string {
  const stem = (title?.trim() || filename.replace(/\.[^.]*$/, '')).replace(UNSAFE, ' ');
  // Trailing dots and spaces vanish on Windows; leading dots hide the file elsewhere.
  const clean = [...stem.replace(/\s+/g, ' ').replace(/^[.\s]+|[.\s]+$/g, '')]
    .slice(0, MAX_NAME_CHARS)
    .join('')
    .trim();
  return `${clean || 'video'}.${ext}`;
}

/**
 * attachment with the UTF-8 name (RFC 6266 / 5987) and an ASCII fallback for old clients:
 * non-ASCII letters become "_" there.
 */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
