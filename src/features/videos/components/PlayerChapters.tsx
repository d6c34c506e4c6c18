// The scenes as chapters under the player (issue 29): one mark per scene on a timeline, its
// thumbnail and times shown on hover or focus, a click seeks to its start, the scene playing is
// marked. One mark is in the tab order; the arrow keys, Home and End move between them.
import { memo, useRef, useState, type KeyboardEvent } from 'react';
import { Thumbnail } from '../../../components/Thumbnail';
import { assetUrl } from '../../../lib/asset-url';
import { useT } from '../../../lib/locale-context';
import { clock } from '../../../lib/timecode';
import styles from './Player.module.css';

export interface Chapter {
  index: number;
  start: number;
  end: number;
  thumbnail: string | null;
}

interface PlayerChaptersProps {
  chapters: readonly Chapter[];
  duration: number;
  /** Position in `chapters` of the scene playing; -1 before the first. */
  current: number;
  onSeek: (seconds: number) => void;
}

const percent = (part: number, whole: number): string =>
  `${Math.min(100, Math.max(0, (part / whole) * 100))}%`;

export const PlayerChapters = memo(function PlayerChapters({
  chapters,
  duration,
  current,
  onSeek,
}: PlayerChaptersProps) {
  const t = useT();
  const [focused, setFocused] = useState<number | null>(null);
  const [hovered, setHovered] = useState<number | null>(null);
  const bar = useRef<HTMLOListElement>(null);
  const whole = duration > 0 ? duration : (chapters.at(-1)?.end ?? 1) || 1;
  const tabStop = focused ?? Math.max(0, current);
  const previewed = hovered ?? focused;
  const preview = previewed === null ? null : chapters[previewed];

  const moveFocus = (event: KeyboardEvent, from: number) => {
    const last = chapters.length - 1;
    const to =
      event.key === 'ArrowRight'
        ? Math.min(last, from + 1)
        : event.key === 'ArrowLeft'
          ? Math.max(0, from - 1)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (to === null) return;
    event.preventDefault();
    setFocused(to);
    bar.current?.querySelectorAll('button')[to]?.focus();
  };

  const label = (chapter: Chapter) =>
    t('player.chapter', {
      n: chapter.index,
      start: clock(chapter.start),
      end: clock(chapter.end),
    });

  return (
    <div className={styles.chapters}>
      <ol className={styles.bar} ref={bar} aria-label={t('player.chapters')}>
        {chapters.map((chapter, i) => (
          <li
            key={chapter.index}
            style={{
              left: percent(chapter.start, whole),
              width: percent(chapter.end - chapter.start, whole),
            }}
          >
            <button
              type="button"
              className={styles.mark}
              tabIndex={i === tabStop ? 0 : -1}
              aria-label={label(chapter)}
              aria-current={i === current ? 'true' : undefined}
              data-testid="chapter"
              onClick={() => onSeek(chapter.start)}
              onFocus={() => setFocused(i)}
              onBlur={() => setFocused(null)}
              onMouseEnter={() => setHovered(i)}
              onMouseLeave={() => setHovered(null)}
              onKeyDown={(event) => moveFocus(event, i)}
            />
          </li>
        ))}
      </ol>
      {preview ? (
        // The mark's name says the same to a screen reader; this is the picture of it.
        <div
          className={styles.preview}
          // Kept off the edges: it is centred on its mark and must not leave the dialog.
          style={{
            left: `clamp(4.5rem, ${percent((preview.start + preview.end) / 2, whole)}, calc(100% - 4.5rem))`,
          }}
          aria-hidden="true"
          data-testid="chapter-preview"
        >
          <Thumbnail src={assetUrl(preview.thumbnail)} alt="" width={128} height={72} />
          <span>{label(preview)}</span>
        </div>
      ) : null}
    </div>
  );
});
