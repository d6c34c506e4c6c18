// GET payloads travel as bracket-nested query strings (product-spec section 7):
// {a: {b: 1, c: [2]}} -> a[b]=1&a[c][]=2. Null and undefined values are dropped.

type Pair = [string, string];

function collect(prefix: string, value: unknown, out: Pair[]): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value) collect(`${prefix}[]`, item, out);
    return;
  }
  if (value instanceof Date) {
    out.push([prefix, value.toISOString()]);
    return;
  }
  if (typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) collect(`${prefix}[${key}]`, inner, out);
    return;
  }
  out.push([prefix, String(value)]);
}

/** Encodes an object as a query string without the leading "?". */
export function encodeQuery(params: Record<string, unknown>): string {
  const pairs: Pair[] = [];
  for (const [key, value] of Object.entries(params)) collect(key, value, pairs);
  return pairs
    .map(([key, value]) => `${encodeBracketKey(key)}=${encodeURIComponent(value)}`)
    .join('&');
}

// Brackets stay readable: servers parse them either way, and URLs in logs stay legible.
function encodeBracketKey(key: string): string {
  return encodeURIComponent(key).replace(/%5B/g, '[').replace(/%5D/g, ']');
}
