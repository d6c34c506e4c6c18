// Creation dates in QuickTime metadata, in the layout an iPhone writes (moov/meta without
// version/flags, keys + ilst), which ffmpeg cannot produce: the generated-file tests cover udta.
import { describe, expect, it } from 'vitest';
import { metadataDates, parseMetadataDate } from './quicktime-dates.ts';

const text = new TextEncoder();

function box(type: string, ...payload: Uint8Array[]): Uint8Array {
  const size = 8 + payload.reduce((n, p) => n + p.byteLength, 0);
  const out = new Uint8Array(size);
  new DataView(out.buffer).setUint32(0, size);
  out.set(
    Uint8Array.from(type, (c) => c.charCodeAt(0)),
    4,
  );
  let at = 8;
  for (const part of payload) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

const u32 = (...values: number[]): Uint8Array => {
  const out = new Uint8Array(values.length * 4);
  values.forEach((v, i) => new DataView(out.buffer).setUint32(i * 4, v));
  return out;
};

/** An ilst item whose box type is the 1-based index of its key. */
const keyedItem = (index: number, value: string): Uint8Array => {
  const item = box('____', box('data', u32(1, 0), text.encode(value)));
  new DataView(item.buffer).setUint32(4, index);
  return item;
};

function iphoneMoov(entries: [string, string][]): Uint8Array {
  const keys = box(
    'keys',
    u32(0, entries.length),
    ...entries.map(([key]) => {
      const name = text.encode(key);
      return Uint8Array.from([...u32(8 + name.byteLength), ...text.encode('mdta'), ...name]);
    }),
  );
  const ilst = box('ilst', ...entries.map(([, value], i) => keyedItem(i + 1, value)));
  const hdlr = box('hdlr', u32(0, 0), text.encode('mdta'), u32(0, 0, 0), new Uint8Array(1));
  return box('moov', box('mvhd', new Uint8Array(100)), box('meta', hdlr, keys, ilst));
}

describe('QuickTime metadata dates', () => {
  it("finds an iPhone's creation date among its keys in moov/meta", () => {
    const moov = iphoneMoov([
      ['com.apple.quicktime.make', 'Apple'],
      ['com.apple.quicktime.creationdate', '2023-05-06T07:08:09+0900'],
      ['com.apple.quicktime.model', 'iPhone 14'],
    ]);
    expect(metadataDates(moov).appleCreationDate?.toISOString()).toBe('2023-05-05T22:08:09.000Z');
    expect(metadataDates(moov).day).toBeUndefined();
  });

  it('finds nothing in a moov without metadata', () => {
    const moov = box('moov', box('mvhd', new Uint8Array(100)));
    expect(metadataDates(moov)).toEqual({ appleCreationDate: undefined, day: undefined });
  });

  it('ignores a meta box cut short instead of failing the probe', () => {
    const moov = iphoneMoov([['com.apple.quicktime.creationdate', '2023-05-06T07:08:09+0900']]);
    const view = new DataView(moov.buffer);
    // The keys box claims one entry of 200 bytes, past the end of its box.
    const keysAt = moov.findIndex(
      (_, i) => String.fromCharCode(...moov.slice(i, i + 4)) === 'keys',
    );
    view.setUint32(keysAt + 12, 200);
    expect(metadataDates(moov).appleCreationDate).toBeUndefined();
    expect(metadataDates(moov.slice(0, 40)).appleCreationDate).toBeUndefined();
  });

  it('reads date-times with any zone notation, and refuses a year or a date alone', () => {
    expect(parseMetadataDate('2023-05-06T07:08:09+09:00')?.toISOString()).toBe(
      '2023-05-05T22:08:09.000Z',
    );
    expect(parseMetadataDate('2023-05-06T07:08:09-0230')?.toISOString()).toBe(
      '2023-05-06T09:38:09.000Z',
    );
    expect(parseMetadataDate('2023-05-06 07:08:09.5Z')?.toISOString()).toBe(
      '2023-05-06T07:08:09.500Z',
    );
    for (const value of ['2019', '2023-05-06', 'yesterday', '', undefined])
      expect(parseMetadataDate(value)).toBeUndefined();
  });
});
