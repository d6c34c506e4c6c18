import { describe, expect, it } from 'vitest';
import { captionsSrt, captionsVtt, srtTime } from './captions.ts';
import { csvField, scenesCsv, SCENE_CSV_COLUMNS, type CsvScene } from './csv.ts';
import { downloadKey, parseDownloadKey } from './files.ts';
import { contentDisposition, downloadName } from './name.ts';

/** A small RFC 4180 reader: enough to read back what scenesCsv writes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

const cues = [
  { start_time: '00:00:00.500', end_time: '00:00:01.500', text: 'Hello from the harbour' },
  { start_time: '01:02:03.004', end_time: '01:02:05.250', text: 'Two lines\n\nof text' },
];

describe('captions files', () => {
  it('writes SubRip with numbered cues and comma timecodes', () => {
    expect(srtTime(3_723_004)).toBe('01:02:03,004');
    expect(captionsSrt(cues)).toBe(
      '1\r\n00:00:00,500 --> 00:00:01,500\r\nHello from the harbour\r\n\r\n' +
        '2\r\n01:02:03,004 --> 01:02:05,250\r\nTwo lines\r\nof text\r\n\r\n',
    );
  });

  it('writes WebVTT with the same cues', () => {
    const vtt = captionsVtt(cues);
    expect(vtt.startsWith('WEBVTT\n\n')).toBe(true);
    expect(vtt).toContain('00:00:00.500 --> 00:00:01.500\nHello from the harbour');
    expect(vtt).toContain('01:02:03.004 --> 01:02:05.250');
  });

  it('leaves out a cue whose times do not parse', () => {
    const srt = captionsSrt([{ start_time: 'soon', end_time: 'later', text: 'x' }, cues[0]!]);
    expect(srt.startsWith('1\r\n00:00:00,500')).toBe(true);
    expect(srt).not.toContain('x\r\n');
  });
});

describe('scene list CSV', () => {
  const scene = (over: Partial<CsvScene>): CsvScene => ({
    index: 0,
    start_time: '00:00:00.000',
    end_time: '00:00:02.000',
    description: 'A quiet harbour.',
    people: [],
    objects: [],
    screen_text: '',
    ...over,
  });

  it('reads back as the header and one row per scene, quotes and Japanese intact', () => {
    const csv = scenesCsv([
      scene({
        description: 'Boats, "big" ones,\nat dawn',
        people: [{ name: 'Maria Lopez' }, { name: '山田 太郎' }],
        objects: ['boat', 'cell phone'],
        screen_text: 'HARBOUR FESTIVAL\n横浜港の花火大会',
      }),
      scene({ index: 1, start_time: '00:00:02.000', end_time: '00:00:04.500' }),
    ]);
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const rows = parseCsv(csv.slice(1));
    expect(rows).toEqual([
      [...SCENE_CSV_COLUMNS],
      [
        '0',
        '00:00:00.000',
        '00:00:02.000',
        'Boats, "big" ones,\nat dawn',
        'Maria Lopez; 山田 太郎',
        'boat; cell phone',
        'HARBOUR FESTIVAL\n横浜港の花火大会',
      ],
      ['1', '00:00:02.000', '00:00:04.500', 'A quiet harbour.', '', '', ''],
    ]);
  });

  it('keeps a formula out of spreadsheets', () => {
    const rows = parseCsv(scenesCsv([scene({ description: '=HYPERLINK("x")' })]).slice(1));
    expect(rows[1]![3]).toBe('\'=HYPERLINK("x")');
    expect(csvField('plain')).toBe('plain');
  });
});

describe('download names', () => {
  it('names the file after the title, in its own language, safe for file systems', () => {
    expect(downloadName('横浜港の花火大会', 'clip.mp4', 'srt')).toBe('横浜港の花火大会.srt');
    expect(downloadName('Harbour: "night" / day?', 'clip.mp4', 'csv')).toBe(
      'Harbour night day.csv',
    );
    expect(downloadName(null, 'harbour walk.mov', 'json')).toBe('harbour walk.json');
    expect(downloadName('...', '.mp4', 'vtt')).toBe('video.vtt');
    expect(downloadName('a'.repeat(300), 'x.mp4', 'vtt')).toBe(`${'a'.repeat(120)}.vtt`);
  });

  it('sends the UTF-8 name with an ASCII fallback', () => {
    expect(contentDisposition('花火 (夜).csv')).toBe(
      'attachment; filename="__ (_).csv"; ' +
        "filename*=UTF-8''%E8%8A%B1%E7%81%AB%20%28%E5%A4%9C%29.csv",
    );
    // The fallback can hold no quote to end it early.
    expect(contentDisposition('a"b.csv')).toContain('filename="a_b.csv"');
  });

  it('knows its keys and no other', () => {
    const id = '0b0b0b0b-1111-4222-8333-444444444444';
    expect(parseDownloadKey(downloadKey(id, 'scenes_csv'))).toEqual({
      videoId: id,
      kind: 'scenes_csv',
    });
    expect(parseDownloadKey(`output/${id}/downloads/other.txt`)).toBeUndefined();
    expect(parseDownloadKey(`output/${id}/captions.vtt`)).toBeUndefined();
  });
});
