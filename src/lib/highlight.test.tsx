import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { highlight } from './highlight';

const marked = (text: string, terms: string[]) => {
  const { container } = render(<p>{highlight(text, terms)}</p>);
  return {
    text: container.textContent,
    marks: [...container.querySelectorAll('mark')].map((m) => m.textContent),
  };
};

describe('highlight', () => {
  it('marks every occurrence of each term, whatever its case, and keeps the text whole', () => {
    expect(marked('Boats in the Harbour; harbour gulls', ['harbour', 'gull'])).toEqual({
      text: 'Boats in the Harbour; harbour gulls',
      marks: ['Harbour', 'harbour', 'gull'],
    });
  });

  it('takes terms literally and prefers the longer one', () => {
    expect(
      marked('a (b) c.d harbour front', ['(b)', 'c.d', 'harbour', 'harbour front']).marks,
    ).toEqual(['(b)', 'c.d', 'harbour front']);
  });

  it('leaves a text without matches or terms alone', () => {
    expect(marked('Boats', ['gull']).marks).toEqual([]);
    expect(marked('Boats', ['  ']).marks).toEqual([]);
  });
});
