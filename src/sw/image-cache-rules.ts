// Which requests the image cache holds and under which key. Asset URLs carry a signature in the
// query string that changes on every list load; keyed with it, every visit would miss the cache
// and fill it with duplicates. The key is the path alone: the signature is checked by the server
// when the image is first fetched, and the cache itself belongs to one user (purged on logout).
// The captions track (WebVTT) is kept the same way, so a detail seen online plays its captions
// offline (issue 29).
import {
  IMAGE_CACHE_MAX_AGE_SECONDS,
  IMAGE_CACHE_MAX_ENTRIES,
  IMAGE_CACHE_NAME,
} from '../config/upload-queue.ts';

const IMAGE_PATH = /^\/assets\/data\/(output|input)\/.+\.(jpe?g|png|webp|gif|avif)$/i;
const CAPTIONS_PATH = /^\/assets\/data\/output\/.+\.vtt$/i;

export function isCachedImage(url: URL, origin: string): boolean {
  return url.origin === origin && IMAGE_PATH.test(url.pathname);
}

/** A video's captions track, kept beside its pictures (no placeholder when it cannot be had). */
export function isCachedCaptions(url: URL, origin: string): boolean {
  return url.origin === origin && CAPTIONS_PATH.test(url.pathname);
}

/** The cache key: origin and path, without the signed query string or a fragment. */
export function imageCacheKey(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

export const IMAGE_CACHE = {
  cacheName: IMAGE_CACHE_NAME,
  maxEntries: IMAGE_CACHE_MAX_ENTRIES,
  maxAgeSeconds: IMAGE_CACHE_MAX_AGE_SECONDS,
  /** Storage budget: when the origin's quota runs out, this cache is emptied first. */
  purgeOnQuotaError: true,
} as const;

/** Grey placeholder shown for an image that is neither cached nor reachable (product-spec 8). */
export const PLACEHOLDER_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180" viewBox="0 0 320 180">' +
  '<rect width="320" height="180" fill="#d9d9d9"/></svg>';
