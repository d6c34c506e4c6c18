// The "a - b of total" of the video list while some of its server rows are hidden (videos the
// upload queue still works on show as upload rows above the list instead). The numbers count the
// rows the list shows, so a hidden video is neither in the range nor in the total.
//
// A hidden video on this page is known. One on another page is counted by the server when no tag
// filter is on (every video of the team counts then; a video still uploading carries no tags, so
// under a filter it is in no page). Uploads are the newest work in progress, which the list sorts
// first, so a hidden video that is not on this page sits on an earlier one.

export interface VisibleCount {
  /** Rows the list shows on this page. */
  shown: number;
  /** Videos in the list, hidden ones left out. */
  total: number;
  /** Positions before this page taken by hidden videos (the range starts that much earlier). */
  skipped: number;
}

export function visibleCount(
  data: { page: number; total: number; items: { id: string }[] },
  hidden: ReadonlySet<string>,
  filtered: boolean,
): VisibleCount {
  const hiddenHere = data.items.filter((item) => hidden.has(item.id)).length;
  const hiddenElsewhere = filtered ? 0 : Math.max(0, hidden.size - hiddenHere);
  return {
    shown: data.items.length - hiddenHere,
    total: Math.max(0, data.total - hiddenHere - hiddenElsewhere),
    skipped: data.page > 1 ? hiddenElsewhere : 0,
  };
}
