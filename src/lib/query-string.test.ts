import { describe, expect, it } from 'vitest';
import { camelizeKeys, toCamelCase } from './case-keys';
import { encodeQuery } from './query-string';

describe('encodeQuery', () => {
  it('nests objects and arrays with brackets', () => {
    expect(encodeQuery({ a: { b: 1, c: [2, 3] } })).toBe('a[b]=1&a[c][]=2&a[c][]=3');
  });

  it('drops null and undefined, keeps false and zero, encodes values', () => {
    expect(encodeQuery({ x: null, y: undefined, f: false, n: 0, s: 'a b&c' })).toBe(
      'f=false&n=0&s=a%20b%26c',
    );
  });

  it('encodes the keys but leaves brackets readable', () => {
    expect(encodeQuery({ 'k y': { ä: 'v' } })).toBe('k%20y[%C3%A4]=v');
  });
});

describe('camelizeKeys', () => {
  it('converts keys recursively through arrays and objects, not values', () => {
    expect(
      camelizeKeys({
        access_token: 'a_b',
        user: { full_name: 'X', team: { team_name: 't' } },
        items: [{ video_path: 'p' }],
      }),
    ).toEqual({
      accessToken: 'a_b',
      user: { fullName: 'X', team: { teamName: 't' } },
      items: [{ videoPath: 'p' }],
    });
  });

  it('handles already camel keys and digits', () => {
    expect(toCamelCase('createdAt')).toBe('createdAt');
    expect(toCamelCase('scene_2_path')).toBe('scene2Path');
  });
});
