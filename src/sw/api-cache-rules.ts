// Which API answers the service worker keeps for offline reading: the GETs behind the screens a
// user browses (video list pages, details, similar searches, profile, languages). Token-issuing
// and every other call always go to the network and are never stored.
import { ANSWER_OWNER_HEADER } from '../config/offline.ts';
const CACHED_API_PATH =
  /^\/api\/(videos|videos\/find-similar-(videos|scenes)|videos\/[^/]+|profile|supported-videos-languages)$/;

export function isCachedApiGet(url: URL, method: string, origin: string): boolean {
  return method === 'GET' && url.origin === origin && CACHED_API_PATH.test(url.pathname);
}

/**
 * An answer is kept only in the cache of the user the API made it for (it names them in a header),
 * so a request sent with a token the worker has not heard of yet is still kept for its user, and
 * another user's answer never lands in the signed-in user's cache.
 */
export function isAnswerFor(response: Response, userId: string): boolean {
  return response.status === 200 && response.headers.get(ANSWER_OWNER_HEADER) === userId;
}
