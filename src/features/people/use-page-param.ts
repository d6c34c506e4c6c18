// A list's page kept in the URL query (as the video list does), so Back returns to the same page.
// Each paged list of a screen has its own parameter, and the others stay as they are.
import { useCallback } from 'react';
import { useLocation, useSearch } from 'wouter';
import { DEFAULT_PAGE } from '../../config/limits';
import { navigateTo } from '../../lib/navigation';

export function usePageParam(name: string): [number, (page: number) => void] {
  const search = useSearch();
  const [path] = useLocation();
  const raw = Number.parseInt(new URLSearchParams(search).get(name) ?? '', 10);
  const page = raw > 0 ? raw : DEFAULT_PAGE;
  const setPage = useCallback(
    (next: number) => {
      const query = new URLSearchParams(window.location.search);
      if (next > DEFAULT_PAGE) query.set(name, String(next));
      else query.delete(name);
      const rest = query.toString();
      navigateTo(rest ? `${path}?${rest}` : path);
    },
    [name, path],
  );
  return [page, setPage];
}
