import { describe, expect, it } from 'vitest';
import { HttpError } from '../lib/http-error.ts';
import { cleanName, replaceName } from './corrections.ts';

describe('replaceName', () => {
  it('replaces the name where it stands as a word', () => {
    expect(replaceName('Ann waves. Ann, then Annette and Joanna.', 'Ann', 'Anne')).toBe(
      'Anne waves. Anne, then Annette and Joanna.',
    );
    expect(replaceName('Franck Dupont is in the picture.', 'Franck Dupont', 'Franck D.')).toBe(
      'Franck D. is in the picture.',
    );
    expect(replaceName('Ann2 and ann', 'Ann', 'X')).toBe('Ann2 and ann');
  });

  it('takes the names literally and replaces Japanese names wherever they are', () => {
    expect(replaceName('a.b and axb', 'a.b', '$&1')).toBe('$&1 and axb');
    expect(replaceName('田中さんが話す', '田中', '佐藤')).toBe('佐藤さんが話す');
  });
});

describe('cleanName', () => {
  it('trims, refuses empty and overlong names', () => {
    expect(cleanName('  Grace  ')).toBe('Grace');
    expect(() => cleanName('   ')).toThrow(HttpError);
    expect(cleanName('é'.repeat(100))).toHaveLength(100);
    expect(() => cleanName('x'.repeat(101))).toThrow('Use at most 100 characters.');
  });
});
