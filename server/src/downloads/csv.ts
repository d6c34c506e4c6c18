// The scene list as CSV (RFC 4180): a header row in English, CRLF line ends, every field quoted
// when it holds a comma, a quote or a line break, and a byte order mark so that Excel reads the
// UTF-8 (Japanese descriptions) right.

export const SCENE_CSV_COLUMNS = [
  'index',
  'start',
  'end',
  'description',
  'people',
  'objects',
  'screen_text',
] as const;

export interface CsvScene {
  index: number;
  start_time: string;
  end_time: string;
  description: string;
  people: readonly { name: string }[];
  objects: readonly string[];
  screen_text: string;
}

/** One field: quoted (with quotes doubled) when it needs to be. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * A field as a spreadsheet should show it: text starting with =, +, - or @ would run as a
 * formula in Excel (CSV injection), so it gets a leading apostrophe, as OWASP advises.
 */
function cell(value: string): string {
  return csvField(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
}

export function scenesCsv(scenes: readonly CsvScene[]): string {
  const rows = [SCENE_CSV_COLUMNS.join(',')];
  for (const s of scenes) {
    rows.push(
      [
        String(s.index),
        s.start_time,
        s.end_time,
        cell(s.description),
        cell(s.people.map((p) => p.name).join('; ')),
        cell(s.objects.join('; ')),
        cell(s.screen_text),
      ].join(','),
    );
  }
  return `\uFEFF${rows.join('\r\n')}\r\n`;
}
