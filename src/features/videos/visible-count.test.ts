import { describe, expect, it } from 'vitest';
import { pageRange } from '../../components/Pagination';
import { visibleCount } from './visible-count';

const ids = (...list: string[]) => list.map((id) => ({ id }));

/** What the list says above its rows: "from - to of total". */
function range(
  data: { page: number; total: number; items: { id: string }[] },
  hidden: string[],
  filtered = false,
): string {
  const c = visibleCount(data, new Set(hidden), filtered);
  const { from, to } = pageRange(data.page, 3, c.shown, c.total, c.skipped);
  return `${from} - ${to} of ${c.total}`;
}

describe('the video list count while uploads hide server rows', () => {
  it('counts neither in the range nor in the total a video shown as an upload', () => {
    // 7 videos, the newest (u) still uploading: the list shows 2 rows on page 1.
    expect(range({ page: 1, total: 7, items: ids('u', 'a', 'b') }, ['u'])).toBe('1 - 2 of 6');
    // Page 2 goes on where page 1 stopped.
    expect(range({ page: 2, total: 7, items: ids('c', 'd', 'e') }, ['u'])).toBe('3 - 5 of 6');
    expect(range({ page: 3, total: 7, items: ids('f') }, ['u'])).toBe('6 - 6 of 6');
  });

  it('counts as before when nothing is hidden', () => {
    expect(range({ page: 2, total: 7, items: ids('c', 'd', 'e') }, [])).toBe('4 - 6 of 7');
  });

  it('says 0 - 0 of 0 when the only video is the one uploading', () => {
    expect(range({ page: 1, total: 1, items: ids('u') }, ['u'])).toBe('0 - 0 of 0');
  });

  it('under a tag filter counts only hidden rows the page holds (uploads carry no tags)', () => {
    expect(range({ page: 1, total: 2, items: ids('a', 'b') }, ['u'], true)).toBe('1 - 2 of 2');
    expect(range({ page: 1, total: 2, items: ids('u', 'a') }, ['u'], true)).toBe('1 - 1 of 1');
  });
});
