import { describe, expect, it } from 'vitest';
import {
  advancedSearchPath,
  apiParams,
  buildQuery,
  coerceTopK,
  DEFAULT_SEARCH,
  parseSearch,
  similarResultsPath,
} from './search-query';

describe('similar search query (product-spec section 2)', () => {
  it('drops null values, sends booleans as strings and URL-encodes the description', () => {
    const path = similarResultsPath({
      ...DEFAULT_SEARCH,
      video: false,
      kValue: 25,
      description: 'red car & 100% 東京/night?',
      searchMethod: 'sparse',
    });
    expect(path).toBe(
      '/video/similar?video=false&kValue=25' +
        '&description=red%20car%20%26%20100%25%20%E6%9D%B1%E4%BA%AC%2Fnight%3F&searchMethod=sparse',
    );
    expect(path).not.toContain('null');
    expect(path).not.toContain('sceneIndex');
    expect(path).not.toContain('searchScope');
  });

  it('puts the video id in the path and keeps scene index 0 and the scope', () => {
    const path = similarResultsPath({
      ...DEFAULT_SEARCH,
      videoId: 'a1b2',
      sceneIndex: 0,
      searchScope: 'current',
      video: false,
    });
    expect(path).toBe(
      '/video/similar/a1b2?sceneIndex=0&searchScope=current&video=false&kValue=10&searchMethod=hybrid',
    );
  });

  it('reads back what it wrote, and Change goes to the advanced search with the same query', () => {
    const search = {
      ...DEFAULT_SEARCH,
      videoId: 'v-1',
      sceneIndex: 3,
      searchScope: 'all' as const,
      video: false,
      kValue: 7,
      description: 'a b+c',
      searchMethod: 'dense' as const,
      page: 2,
    };
    const path = similarResultsPath(search);
    const url = new URL(path, 'http://x');
    expect(parseSearch('v-1', url.search)).toEqual(search);
    expect(advancedSearchPath(search)).toBe(
      '/advanced-search/v-1?sceneIndex=3&searchScope=all&video=false&kValue=7&description=a%20b%2Bc&searchMethod=dense',
    );
  });

  it('falls back to defaults for missing or broken values', () => {
    const s = parseSearch(undefined, '?kValue=abc&searchMethod=fuzzy&searchScope=x&video=yes');
    expect(s).toEqual({ ...DEFAULT_SEARCH, video: true });
    expect(parseSearch(undefined, '?kValue=5000').kValue).toBe(999);
  });

  it('gives the API the scope only with a video, and page 1 by default', () => {
    expect(apiParams({ ...DEFAULT_SEARCH, description: 'x' }, 50)).toEqual({
      videoId: undefined,
      sceneIndex: undefined,
      searchScope: undefined,
      kValue: 10,
      description: 'x',
      searchMethod: 'hybrid',
      page: 1,
      size: 50,
    });
    expect(apiParams({ ...DEFAULT_SEARCH, videoId: 'v' }, 50).searchScope).toBe('all');
  });

  it('buildQuery leaves out null and undefined but keeps 0, false and empty-looking text', () => {
    expect(
      buildQuery([
        ['a', null],
        ['b', undefined],
        ['c', 0],
        ['d', false],
        ['e', ' '],
      ]),
    ).toBe('c=0&d=false&e=%20');
  });
});

describe('top-k coercion (product-spec section 5)', () => {
  it.each([
    ['', 1],
    ['0', 1],
    ['1', 1],
    ['10', 10],
    ['999', 999],
    ['1000', 999],
    ['12abc3', 123],
    ['-5', 5],
  ])('%j becomes %i', (text, value) => {
    expect(coerceTopK(text)).toBe(value);
  });
});
