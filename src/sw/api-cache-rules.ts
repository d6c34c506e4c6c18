// Which API answers the service worker keeps for offline reading: the GETs behind the screens a
// user browses (video list pages, details, similar searches, profile, languages). Token-issuing
// and every other call always go to the network and are never stored.
const CACHED_API_PATH =
  /^\/api\/(videos|videos\/find-similar-(videos|scenes)|videos\/[^/]+|profile|supported-videos-languages)$/;

export function isCachedApiGet(url: URL, method: string, origin: string): boolean {
  return method === 'GET' && url.origin === origin && CACHED_API_PATH.test(url.pathname);
}
