// The API speaks snake_case; the app works in camelCase (product-spec section 7).

export function toCamelCase(key: string): string {
  return key.replace(/[_-]+([a-zA-Z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** Converts every object key to camelCase, recursively through arrays and objects. */
export function camelizeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelizeKeys);
  if (value !== null && typeof value === 'object' && isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[toCamelCase(key)] = camelizeKeys(inner);
    return out;
  }
  return value;
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
