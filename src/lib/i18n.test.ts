import { describe, expect, it } from 'vitest';
import en from '../../lang/en.json';
import ja from '../../lang/ja.json';
import { detectLocale, loadMessages } from './i18n';

describe('detectLocale (section 1)', () => {
  it('prefers the saved choice', () => {
    expect(detectLocale('ja', 'en-US')).toBe('ja');
    expect(detectLocale('en', 'ja-JP')).toBe('en');
  });

  it('falls back to the browser language: ja* is Japanese, anything else English', () => {
    expect(detectLocale(null, 'ja')).toBe('ja');
    expect(detectLocale(null, 'ja-JP')).toBe('ja');
    expect(detectLocale(null, 'JA-jp')).toBe('ja');
    expect(detectLocale(null, 'en-GB')).toBe('en');
    expect(detectLocale(null, 'fr')).toBe('en');
    expect(detectLocale(null, undefined)).toBe('en');
  });

  it('ignores a saved value that is not a supported locale', () => {
    expect(detectLocale('de', 'ja-JP')).toBe('ja');
    expect(detectLocale('', 'en-US')).toBe('en');
  });
});

describe('messages', () => {
  it('English and Japanese have the same keys, none empty', () => {
    expect(Object.keys(ja).sort()).toEqual(Object.keys(en).sort());
    for (const value of [...Object.values(en), ...Object.values(ja)]) expect(value).not.toBe('');
  });

  it('Japanese texts are Japanese, not copies of the English ones', () => {
    // Names that read the same in both languages.
    const same = new Set(['common.languageEnglish', 'common.ok']);
    const japanese = /[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]/;
    const notJapanese = Object.entries(ja).filter(
      ([key, value]) => !same.has(key) && !japanese.test(value),
    );
    expect(notJapanese).toEqual([]);
  });

  it('Japanese loads on demand', async () => {
    const messages = await loadMessages('ja');
    expect(messages['login.submit']).toBe(ja['login.submit']);
  });
});
