// One row of the video list; what it shows depends on the status (product-spec section 2).
// Plain elements with a CSS module and memoised: a page of 50 rows renders without long tasks
// (bench/list-render.ts), and a poll or a delete re-renders only the rows that changed.
import { memo, useLayoutEffect, useRef, useState, type MouseEvent } from 'react';
import { TrashIcon } from '../../../components/ActionIcons';
import { NeedsNetwork } from '../../../components/NeedsNetwork';
import { Thumbnail } from '../../../components/Thumbnail';
import { videoDetailPath } from '../../../config/routes';
import { assetUrl } from '../../../lib/asset-url';
import { formatDateTime } from '../../../lib/dates';
import { useT } from '../../../lib/locale-context';
import type { RetryArgs, Video } from '../api';
import { failureMessageId } from '../../../lib/failure-messages';
import styles from './VideoRow.module.css';

export const THUMB_WIDTH = 160;
export const THUMB_HEIGHT = 90;

interface VideoRowProps {
  video: Video;
  /** The first rows of a page are in view at once: their thumbnails load without waiting. */
  eager?: boolean;
  onOpen: (id: string) => void;
  onDelete: (video: Video) => void;
  onRetry: (args: RetryArgs) => void;
}

export const VideoRow = memo(function VideoRow({
  video,
  eager = false,
  onOpen,
  onDelete,
  onRetry,
}: VideoRowProps) {
  const t = useT();
  const completed = video.status === 'completed';
  const failed = video.status === 'failed';
  // A copy of a video the team has: say which, and offer to analyse it after all (issue 42).
  const duplicateOf = failed && video.failureCode === 'duplicate' ? video.duplicateOf : null;
  const openOriginal = (event: MouseEvent) => {
    event.preventDefault();
    if (duplicateOf) onOpen(duplicateOf.id);
  };

  // Delete and Retry need the server: offline they are disabled with the reason (issue 8).
  const deleteButton = (
    <NeedsNetwork>
      <button
        type="button"
        className={`${styles.button} ${styles.danger}`}
        onClick={(event) => {
          event.stopPropagation();
          onDelete(video);
        }}
      >
        <TrashIcon />
        {t('common.delete')}
      </button>
    </NeedsNetwork>
  );

  if (!completed) {
    return (
      <li
        className={styles.row}
        data-testid="video-row"
        data-status={failed ? 'failed' : 'in_progress'}
      >
        <span className={failed ? `${styles.badge} ${styles.failedBadge}` : styles.badge}>
          {failed ? t('videos.statusFailed') : t('videos.statusInProgress')}
        </span>
        <span className={styles.filename}>{video.filename}</span>
        <span className={styles.muted}>
          {t('videos.uploadedAt', { date: formatDateTime(video.createdAt) })}
        </span>
        {failed ? (
          <span className={styles.failure} data-testid="failure-reason">
            {t(failureMessageId(video.failureCode))}
            {duplicateOf ? (
              <>
                {' '}
                <a href={videoDetailPath(duplicateOf.id)} onClick={openOriginal}>
                  {t('videos.openOriginal', { title: duplicateOf.title || duplicateOf.filename })}
                </a>
              </>
            ) : null}
          </span>
        ) : null}
        {failed ? (
          <NeedsNetwork>
            <button
              type="button"
              className={styles.button}
              onClick={() =>
                onRetry(duplicateOf ? { id: video.id, allowDuplicate: true } : { id: video.id })
              }
            >
              {t(duplicateOf ? 'videos.analyseAnyway' : 'videos.retry')}
            </button>
          </NeedsNetwork>
        ) : null}
        {deleteButton}
      </li>
    );
  }

  const title = video.title || video.filename;
  const open = (event: MouseEvent) => {
    event.preventDefault();
    event.stopPropagation();
    onOpen(video.id);
  };
  return (
    <li
      className={`${styles.row} ${styles.completed}`}
      data-testid="video-row"
      data-status="completed"
      onClick={open}
    >
      <Thumbnail
        src={assetUrl(video.videoThumbnailPath)}
        alt={t('videos.thumbnailOf', { title })}
        width={THUMB_WIDTH}
        height={THUMB_HEIGHT}
        eager={eager}
        className={styles.thumb}
      />
      <div className={styles.body}>
        <a className={styles.title} href={videoDetailPath(video.id)} onClick={open}>
          {title}
        </a>
        {video.tags && video.tags.length > 0 ? <Tags tags={video.tags} /> : null}
        <span className={styles.muted}>
          {t('videos.createdAt', { date: formatDateTime(video.createdAt) })}
        </span>
      </div>
      {deleteButton}
    </li>
  );
});

/** Tags collapsed to about 4rem with View More / View Less when they overflow. */
function Tags({ tags }: { tags: { name: string }[] }) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [overflows, setOverflows] = useState(false);

  useLayoutEffect(() => {
    const element = box.current;
    if (element && !expanded) setOverflows(element.scrollHeight > element.clientHeight + 1);
  }, [tags, expanded]);

  return (
    <>
      <div
        ref={box}
        className={expanded ? `${styles.tagsBox} ${styles.tagsBoxOpen}` : styles.tagsBox}
      >
        <ul className={styles.tags} aria-label={t('videos.tags')}>
          {tags.map((tag) => (
            <li key={tag.name} className={styles.tag}>
              {tag.name}
            </li>
          ))}
        </ul>
      </div>
      {overflows ? (
        <button
          type="button"
          className={styles.more}
          aria-expanded={expanded}
          onClick={(event) => {
            event.stopPropagation();
            setExpanded((value) => !value);
          }}
        >
          {expanded ? t('browse.viewLess') : t('browse.viewMore')}
        </button>
      ) : null}
    </>
  );
}
