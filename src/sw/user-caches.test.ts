import { describe, expect, it } from 'vitest';
import { IMAGE_CACHE_NAME } from '../config/upload-queue.ts';
import { ANSWER_OWNER_HEADER, API_CACHE_NAME, LANGUAGES_CACHE_NAME } from '../config/offline.ts';
import { isAnswerFor, isCachedApiGet } from './api-cache-rules.ts';
import {
  bearerToken,
  cacheOwner,
  isUserCache,
  userCacheName,
  userCachesToDelete,
} from './user-caches.ts';

const origin = 'https://app.example';

describe('user caches', () => {
  const names = [
    'workbox-precache-v2-https://app.example/',
    userCacheName(API_CACHE_NAME, '7'),
    userCacheName(IMAGE_CACHE_NAME, '7'),
    userCacheName(API_CACHE_NAME, '12'),
    userCacheName(IMAGE_CACHE_NAME, '12'),
    'images-v1', // an older build's global image cache
  ];

  it('names every cache of user data after its owner', () => {
    expect(userCacheName(API_CACHE_NAME, '7')).toBe('api-v1@7');
    expect(cacheOwner('images-v1@7')).toBe('7');
    expect(cacheOwner('images-v1')).toBeUndefined();
    expect(isUserCache('api-v1@7')).toBe(true);
    expect(isUserCache('workbox-precache-v2-https://app.example/')).toBe(false);
  });

  it('logout purges every user cache and keeps the app shell', () => {
    expect(userCachesToDelete(names)).toEqual(names.slice(1));
  });

  it('a sign-in keeps only the caches of the user who signed in', () => {
    expect(userCachesToDelete(names, '12')).toEqual(['api-v1@7', 'images-v1@7', 'images-v1']);
    expect(userCachesToDelete(names, '1')).toEqual(names.slice(1));
  });

  it("purges the upload dialog's languages like any other answer (and the old global copy)", () => {
    const languages = userCacheName(LANGUAGES_CACHE_NAME, '7');
    expect(isUserCache(languages)).toBe(true);
    expect(userCachesToDelete([languages, 'upload-languages-v1'], '7')).toEqual([
      'upload-languages-v1',
    ]);
    expect(userCachesToDelete([languages])).toEqual([languages]);
  });

  it('reads the bearer token only from a Bearer Authorization header', () => {
    expect(bearerToken(new Headers({ Authorization: 'Bearer abc.def' }))).toBe('abc.def');
    expect(bearerToken(new Headers({ Authorization: 'Basic abc' }))).toBeUndefined();
    expect(bearerToken(new Headers())).toBeUndefined();
  });
});

describe('API answers kept for offline reading', () => {
  const cached = (path: string, method = 'GET') =>
    isCachedApiGet(new URL(path, origin), method, origin);

  it('keeps the browsing GETs: list pages, details, similar searches, profile', () => {
    expect(cached('/api/videos?page=2&size=50')).toBe(true);
    expect(cached('/api/videos/42')).toBe(true);
    expect(cached('/api/videos/find-similar-videos?videoId=1&kValue=5')).toBe(true);
    expect(cached('/api/videos/find-similar-scenes?description=sea')).toBe(true);
    expect(cached('/api/profile')).toBe(true);
    expect(cached('/api/supported-videos-languages')).toBe(true);
  });

  it('never keeps tokens, writes, reports or other hosts', () => {
    expect(cached('/api/refresh')).toBe(false);
    expect(cached('/api/login', 'POST')).toBe(false);
    expect(cached('/api/videos', 'POST')).toBe(false);
    expect(cached('/api/videos/42', 'DELETE')).toBe(false);
    expect(cached('/api/videos/42/report/report.html')).toBe(false);
    expect(cached('/api/videos/42/multipart/parts')).toBe(false);
    expect(isCachedApiGet(new URL('https://evil.example/api/videos'), 'GET', origin)).toBe(false);
  });
});

describe('whose answer it is', () => {
  const answer = (status: number, owner?: string) =>
    new Response(status === 204 ? null : '{}', {
      status,
      headers: owner ? { [ANSWER_OWNER_HEADER]: owner } : {},
    });

  it('keeps an answer only for the user the API made it for', () => {
    expect(isAnswerFor(answer(200, '7'), '7')).toBe(true);
    expect(isAnswerFor(answer(200, '8'), '7')).toBe(false);
    expect(isAnswerFor(answer(200), '7')).toBe(false);
    expect(isAnswerFor(answer(401, '7'), '7')).toBe(false);
  });
});
