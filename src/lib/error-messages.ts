// How a server error detail becomes the text of a dialog (product-spec section 8).
import { toCamelCase } from './case-keys';

interface DetailItem {
  loc?: unknown;
  msg?: unknown;
}

/**
 * A string detail is shown as is. A list shows each message with its first word replaced by the
 * camel-cased field name (the last part of loc). Anything else gives `unknownText`.
 */
export function describeServerError(error: unknown, unknownText: string): string {
  const detail =
    error !== null && typeof error === 'object'
      ? (error as { detail?: unknown }).detail
      : undefined;
  if (typeof detail === 'string' && detail !== '') return detail;
  if (Array.isArray(detail) && detail.length > 0) {
    const lines = detail
      .map((item: unknown) => describeItem(item as DetailItem))
      .filter((line): line is string => line !== null);
    if (lines.length > 0) return lines.join('\n');
  }
  return unknownText;
}

function describeItem(item: DetailItem | null): string | null {
  if (!item || typeof item.msg !== 'string') return null;
  const loc = Array.isArray(item.loc) ? item.loc : [];
  const field = [...loc].reverse().find((part): part is string => typeof part === 'string');
  if (!field || field === 'body') return item.msg;
  const rest = item.msg.replace(/^\S+/, '');
  return `${toCamelCase(field)}${rest}`;
}
