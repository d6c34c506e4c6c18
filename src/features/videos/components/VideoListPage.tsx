// Video list (product-spec section 2): title, upload slot, tag search, refresh, pagination above
// and below, status rows, delete with confirmation, retry, and the two empty states. Page and
// tag filter live in the URL so the back button returns to the same page. Plain elements with a
// CSS module: the list renders without Chakra's style runtime (issue 8).
import { useCallback, useDeferredValue, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useSearch } from 'wouter';
import { RefreshIcon } from '../../../components/ActionIcons';
import { EmptyState } from '../../../components/EmptyState';
import { LazyAppModal } from '../../../components/LazyAppModal';
import { Pagination } from '../../../components/Pagination';
import { PlainButton } from '../../../components/PlainButton';
import { DEFAULT_PAGE, PAGE_SIZE, VIDEO_LIST_POLL_MS } from '../../../config/limits';
import { ROUTES, videoDetailPath } from '../../../config/routes';
import { useT } from '../../../lib/locale-context';
import { navigateTo } from '../../../lib/navigation';
import { buildQuery } from '../../../lib/search-query';
import {
  isInProgress,
  useDeleteVideoMutation,
  useListVideosQuery,
  useRetryVideoMutation,
  type RetryArgs,
  type Video,
} from '../api';
import { useRevealedRows } from '../use-revealed-rows';
import { visibleCount } from '../visible-count';
import { TagSearchBox } from './TagSearchBox';
import styles from './VideoListPage.module.css';
import { VideoRow } from './VideoRow';

export interface VideoListPageProps {
  /** Where the Upload button goes (composed in src/app). */
  headerActions?: ReactNode;
  /** Queued uploads shown above the list. */
  pendingRows?: ReactNode;
  /** Videos already shown among pendingRows (still uploading): their server rows are hidden. */
  hiddenVideoIds?: ReadonlySet<string>;
}

const SHOW_ALL: ReadonlySet<string> = new Set();
/** Rows whose thumbnails load at once: about a phone screen's worth, the rest as they scroll in. */
const EAGER_ROWS = 4;

function readListQuery(search: string) {
  const q = new URLSearchParams(search);
  const page = Number.parseInt(q.get('page') ?? '', 10);
  return { page: page > 0 ? page : DEFAULT_PAGE, tags: q.get('tags')?.trim() ?? '' };
}

function listPath(page: number, tags: string): string {
  const query = buildQuery([
    ['page', page > DEFAULT_PAGE ? page : null],
    ['tags', tags || null],
  ]);
  return query ? `${ROUTES.videoList}?${query}` : ROUTES.videoList;
}

export function VideoListPage({
  headerActions,
  pendingRows,
  hiddenVideoIds = SHOW_ALL,
}: VideoListPageProps) {
  const t = useT();
  const { page, tags } = readListQuery(useSearch());
  const [pollingInterval, setPollingInterval] = useState(0);
  const query = useListVideosQuery(
    { page, size: PAGE_SIZE, ...(tags ? { tags } : {}) },
    { pollingInterval },
  );
  const { isError, isFetching, refetch } = query;
  // A new page of rows renders as a transition: React works in slices and the main thread
  // never blocks for long (issue 5, no long task while 50 rows render).
  const data = useDeferredValue(query.data);
  const [deleteVideo] = useDeleteVideoMutation();
  const [retryVideo] = useRetryVideoMutation();
  const [toDelete, setToDelete] = useState<Video | null>(null);
  const [failedAction, setFailedAction] = useState(false);
  const items = useMemo(
    () => data?.items.filter((video) => !hiddenVideoIds.has(video.id)) ?? [],
    [data, hiddenVideoIds],
  );
  const revealed = useRevealedRows(items.length, `${page}|${tags}`);
  // The range and total count the rows shown here, not the ones hidden as uploads.
  const count = data ? visibleCount(data, hiddenVideoIds, tags !== '') : undefined;

  // Poll only while something is still being processed (issue 5: stop when none is).
  const anyInProgress = data?.items.some((video) => isInProgress(video.status)) ?? false;
  useEffect(() => {
    setPollingInterval(anyInProgress ? VIDEO_LIST_POLL_MS : 0);
  }, [anyInProgress]);

  const onOpen = useCallback((id: string) => navigateTo(videoDetailPath(id)), []);
  const onDelete = useCallback((video: Video) => setToDelete(video), []);
  const onRetry = useCallback(
    (args: RetryArgs) => {
      retryVideo(args)
        .unwrap()
        .catch(() => setFailedAction(true));
    },
    [retryVideo],
  );
  const confirmDelete = () => {
    if (!toDelete) return;
    const id = toDelete.id;
    setToDelete(null);
    deleteVideo(id)
      .unwrap()
      .catch(() => setFailedAction(true));
  };
  const goTo = (nextPage: number) => navigateTo(listPath(nextPage, tags));

  const pagination = (label: string) =>
    data && count && count.total > 0 ? (
      <Pagination
        page={data.page}
        size={data.size}
        shown={count.shown}
        total={count.total}
        skipped={count.skipped}
        pages={data.pages}
        onPage={goTo}
        label={label}
      />
    ) : null;

  return (
    <div>
      <div className={styles.header}>
        <h1 className={styles.title}>{t('videos.title')}</h1>
        <div className={styles.actions}>{headerActions}</div>
      </div>
      <div className={styles.tools}>
        <TagSearchBox
          key={tags}
          initial={tags}
          onSearch={(value) => navigateTo(listPath(DEFAULT_PAGE, value.trim()))}
        />
        <PlainButton variant="neutral" onClick={() => void refetch()} loading={isFetching}>
          <RefreshIcon />
          {t('videos.refresh')}
        </PlainButton>
      </div>
      {pendingRows}
      {isError ? <p className={styles.error}>{t('videos.loadError')}</p> : null}
      {count?.total === 0 ? (
        tags ? (
          <EmptyState
            title={t('videos.noMatchTitle')}
            description={t('videos.noMatchDescription')}
          />
        ) : (
          <EmptyState title={t('videos.emptyTitle')} description={t('videos.emptyDescription')} />
        )
      ) : null}
      {pagination(t('videos.paginationTop'))}
      {items.length > 0 ? (
        <ul className={styles.list} aria-label={t('videos.listLabel')}>
          {items.slice(0, revealed).map((video, index) => (
            <VideoRow
              key={video.id}
              video={video}
              eager={index < EAGER_ROWS}
              onOpen={onOpen}
              onDelete={onDelete}
              onRetry={onRetry}
            />
          ))}
        </ul>
      ) : null}
      {pagination(t('videos.paginationBottom'))}
      <LazyAppModal
        open={toDelete !== null}
        type="warning"
        lines={[t('videos.deleteConfirm', { name: toDelete?.title || toDelete?.filename || '' })]}
        onClose={() => setToDelete(null)}
        onConfirm={confirmDelete}
      />
      <LazyAppModal
        open={failedAction}
        type="error"
        lines={[t('common.genericError')]}
        onClose={() => setFailedAction(false)}
      />
    </div>
  );
}
