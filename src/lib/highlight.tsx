// Marks words in a text (the search terms on a result card, the filter in a transcript): each
// occurrence, case-insensitive, becomes a <mark>; the rest stays plain text.
import type { ReactNode } from 'react';

const escape = (word: string): string => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` split into plain parts and <mark>ed occurrences of any of `terms`. */
export function highlight(text: string, terms: readonly string[]): ReactNode {
  const words = terms.map((term) => term.trim()).filter(Boolean);
  if (words.length === 0 || text === '') return text;
  // Longest first, so "harbour front" wins over "harbour" where both match.
  const pattern = new RegExp(
    `(${[...words]
      .sort((a, b) => b.length - a.length)
      .map(escape)
      .join('|')})`,
    'giu',
  );
  const parts = text.split(pattern);
  if (parts.length === 1) return text;
  // split() with one capture group puts the matches at the odd places.
  return parts.map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : part || null));
}
