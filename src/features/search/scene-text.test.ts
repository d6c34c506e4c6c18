import { describe, expect, it } from 'vitest';
import { formatScore, splitSceneText } from './scene-text';

describe('scene result title and body', () => {
  it('takes the first 60 characters as the title and the rest as the body', () => {
    const text = `${'a'.repeat(60)}REST`;
    expect(splitSceneText(text)).toEqual({ title: 'a'.repeat(60), body: 'REST' });
    expect(splitSceneText('short')).toEqual({ title: 'short', body: '' });
  });

  it('counts characters, so emoji and Japanese are never cut in half', () => {
    const text = `${'😀'.repeat(59)}東京タワー`;
    const { title, body } = splitSceneText(text);
    expect(Array.from(title)).toHaveLength(60);
    expect(title.endsWith('東')).toBe(true);
    expect(body).toBe('京タワー');
  });

  it('shows the score with two decimals', () => {
    expect(formatScore(0.8765)).toBe('0.88');
    expect(formatScore(1)).toBe('1.00');
  });
});
