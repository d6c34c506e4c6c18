// An in-memory Cache Storage for tests (jsdom has none): enough of Cache and CacheStorage for the
// app's own code and workbox's strategies and expiration (match with ignoreSearch and cacheName,
// put, delete, keys). Install it with vi.stubGlobal('caches', new FakeCacheStorage()).

const requestUrl = (request: RequestInfo | URL): string =>
  request instanceof Request ? request.url : new URL(String(request), 'http://localhost/').href;

const withoutSearch = (url: string): string => url.replace(/[?#].*$/, '');

class FakeCache implements Cache {
  private readonly entries = new Map<string, { request: Request; response: Response }>();

  private find(request: RequestInfo | URL, options?: CacheQueryOptions): string[] {
    const url = requestUrl(request);
    const same = options?.ignoreSearch
      ? (key: string) => withoutSearch(key) === withoutSearch(url)
      : (key: string) => key === url;
    return [...this.entries.keys()].filter(same);
  }

  async match(request: RequestInfo | URL, options?: CacheQueryOptions) {
    const key = this.find(request, options)[0];
    return key === undefined ? undefined : this.entries.get(key)!.response.clone();
  }

  async matchAll(request?: RequestInfo | URL, options?: CacheQueryOptions) {
    const keys = request === undefined ? [...this.entries.keys()] : this.find(request, options);
    return keys.map((key) => this.entries.get(key)!.response.clone());
  }

  async put(request: RequestInfo | URL, response: Response) {
    const url = requestUrl(request);
    // A put replaces and moves the entry to the end, as keys() orders by insertion.
    this.entries.delete(url);
    this.entries.set(url, { request: new Request(url), response: response.clone() });
  }

  async delete(request: RequestInfo | URL, options?: CacheQueryOptions) {
    const keys = this.find(request, options);
    for (const key of keys) this.entries.delete(key);
    return keys.length > 0;
  }

  async keys(request?: RequestInfo | URL, options?: CacheQueryOptions) {
    const keys = request === undefined ? [...this.entries.keys()] : this.find(request, options);
    return keys.map((key) => this.entries.get(key)!.request);
  }

  async add(): Promise<void> {
    throw new Error('FakeCache.add is not implemented');
  }

  async addAll(): Promise<void> {
    throw new Error('FakeCache.addAll is not implemented');
  }

  /** For assertions: the cached URLs, oldest first. */
  urls(): string[] {
    return [...this.entries.keys()];
  }
}

export class FakeCacheStorage implements CacheStorage {
  private readonly caches = new Map<string, FakeCache>();

  async open(name: string): Promise<Cache> {
    return this.cache(name);
  }

  async has(name: string): Promise<boolean> {
    return this.caches.has(name);
  }

  async delete(name: string): Promise<boolean> {
    return this.caches.delete(name);
  }

  async keys(): Promise<string[]> {
    return [...this.caches.keys()];
  }

  async match(request: RequestInfo | URL, options?: MultiCacheQueryOptions) {
    const names = options?.cacheName === undefined ? [...this.caches.keys()] : [options.cacheName];
    for (const name of names) {
      const found = await this.caches.get(name)?.match(request, options);
      if (found) return found;
    }
    return undefined;
  }

  /** For set-up and assertions: the named cache, made if missing (as open() does). */
  cache(name: string): FakeCache {
    let cache = this.caches.get(name);
    if (!cache) {
      cache = new FakeCache();
      this.caches.set(name, cache);
    }
    return cache;
  }

  names(): string[] {
    return [...this.caches.keys()];
  }
}
