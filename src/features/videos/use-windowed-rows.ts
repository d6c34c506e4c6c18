// A long list in a scroll box of its own renders only the rows in and near its view (issue 29).
// With 2,000 transcript lines in the document, every style change on <body> (a dialog opening)
// made Chromium recompute 6,000 elements in one 150-300 ms task; the rows' content-visibility
// cost 2,000 intersection checks besides. Rows may wrap, so their heights are measured once
// rendered; rows not yet seen count at an estimate. The box keeps its full scroll height through
// the list's padding above and below the rendered rows (the list inside the box: padding on the
// box itself would count into its max-height).
import { useCallback, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { lastStartAt } from '../../lib/timecode';

export interface WindowOptions {
  /** A row's height before it is measured, in px. */
  estimate: number;
  /** Rows rendered beyond each edge of the view. */
  overscan: number;
  /** The view's height until the box is laid out (a test DOM never lays it out), in px. */
  viewport: number;
}

export interface RowWindow {
  /** Positions in the list to render: from `start` up to, not including, `end`. */
  start: number;
  end: number;
  /** Padding above and below the rendered rows, in px. */
  before: number;
  after: number;
  /** Scrolls the box so the row at `position` sits a third down its view. */
  reveal: (position: number) => void;
  /** Whether the row at `position` lies wholly within the view. */
  inView: (position: number) => boolean;
  /** The box's onScroll. */
  onScroll: () => void;
}

/**
 * `keys` are the rows' stable ids in list order (a measured height follows its row through a
 * filter); `box` is the scrolling element, whose first child holds the rendered rows.
 */
export function useWindowedRows(
  keys: readonly number[],
  box: RefObject<HTMLElement | null>,
  { estimate, overscan, viewport }: WindowOptions,
): RowWindow {
  const heights = useRef(new Map<number, number>());
  const [measured, remeasured] = useReducer((n: number) => n + 1, 0);
  const [view, setView] = useState({ top: 0, height: viewport });

  // offsets[i] is where row i starts; offsets[keys.length] is the whole height.
  const offsets = useMemo(() => {
    const at = new Array<number>(keys.length + 1);
    at[0] = 0;
    keys.forEach((key, i) => (at[i + 1] = at[i]! + (heights.current.get(key) ?? estimate)));
    return at;
    // `measured` counts the changes to the heights held in the ref.
  }, [keys, estimate, measured]);

  const total = keys.length;
  const start = Math.max(0, lastStartAt(offsets, view.top) - overscan);
  const end = Math.min(total, lastStartAt(offsets, view.top + view.height) + 1 + overscan);

  // A new list (another filter) starts from its top.
  useLayoutEffect(() => {
    if (box.current) box.current.scrollTop = 0;
    setView((now) => (now.top === 0 ? now : { ...now, top: 0 }));
  }, [keys, box]);

  // Measure the rows just rendered; a changed height re-renders with the true offsets.
  useLayoutEffect(() => {
    const rows = box.current?.firstElementChild?.children;
    if (!rows) return;
    let changed = false;
    for (let i = 0; i < rows.length; i++) {
      const key = keys[start + i];
      const height = (rows[i] as HTMLElement).offsetHeight;
      // 0: not laid out (hidden, or a test DOM); nothing to learn.
      if (key === undefined || height === 0 || heights.current.get(key) === height) continue;
      heights.current.set(key, height);
      changed = true;
    }
    if (changed) remeasured();
  });

  // Another width wraps the rows anew: measure again; another height shows more or fewer rows.
  useLayoutEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    let width = element.clientWidth;
    const observer = new ResizeObserver(() => {
      if (element.clientWidth !== width) {
        width = element.clientWidth;
        heights.current.clear();
        remeasured();
      }
      if (element.clientHeight > 0)
        setView((now) =>
          now.height === element.clientHeight ? now : { ...now, height: element.clientHeight },
        );
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [box]);

  const onScroll = useCallback(() => {
    const element = box.current;
    if (!element) return;
    setView({ top: element.scrollTop, height: element.clientHeight || viewport });
  }, [box, viewport]);

  const reveal = (position: number) => {
    const top = Math.max(0, (offsets[position] ?? 0) - view.height / 3);
    if (box.current) box.current.scrollTop = top;
    setView((now) => ({ ...now, top }));
  };

  const inView = (position: number) =>
    position >= 0 &&
    position < total &&
    offsets[position]! >= view.top &&
    offsets[position + 1]! <= view.top + view.height;

  return {
    start,
    end,
    before: offsets[start]!,
    after: offsets[total]! - offsets[end]!,
    reveal,
    inView,
    onScroll,
  };
}
