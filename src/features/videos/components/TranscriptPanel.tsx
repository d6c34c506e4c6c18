// The transcript (issue 29): the captions with their times and a box that filters them; a line
// seeks the player and the line being spoken is highlighted. Only the lines in and near the
// box's view are in the document (use-windowed-rows), so 2,000 lines cost no long task, here or
// when a dialog opens over them. The lines are one tab stop: the arrow keys, Page Up/Down, Home
// and End move between them. Without captions it says why.
import { memo, useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { highlight } from '../../../lib/highlight';
import { useT } from '../../../lib/locale-context';
import type { CaptionCue, CaptionsNote } from '../api';
import { clock, lastStartAt, toSeconds } from '../../../lib/timecode';
import { useWindowedRows } from '../use-windowed-rows';
import styles from './Transcript.module.css';

/** A one-line row's height and the box's (22rem) in px, until measured; rows kept beyond view. */
const WINDOW = { estimate: 30, viewport: 352, overscan: 12 };
/** Lines a Page Up or Page Down moves. */
const PAGE_LINES = 10;

interface TimedCue {
  start: number;
  end: number;
  text: string;
}

export interface TranscriptPanelProps {
  cues: readonly CaptionCue[];
  note: CaptionsNote | null | undefined;
  /** The player's time, or null when no player is open (nothing is highlighted). */
  currentTime: number | null;
  onSeek: (seconds: number) => void;
  /** The heading's level: a section of the page (2) or of the player (3). */
  level?: 2 | 3;
}

export function TranscriptPanel({
  cues,
  note,
  currentTime,
  onSeek,
  level = 2,
}: TranscriptPanelProps) {
  const t = useT();
  const id = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  const timed = useMemo<TimedCue[]>(
    () =>
      cues.map((cue) => ({
        start: toSeconds(cue.startTime),
        end: toSeconds(cue.endTime),
        text: cue.text,
      })),
    [cues],
  );
  const starts = useMemo(() => timed.map((cue) => cue.start), [timed]);
  const [query, setQuery] = useState('');
  // Typing stays responsive while the list filters behind it.
  const filter = useDeferredValue(query.trim().toLocaleLowerCase());
  const shown = useMemo(
    () =>
      filter
        ? timed.flatMap((cue, i) => (cue.text.toLocaleLowerCase().includes(filter) ? [i] : []))
        : timed.map((_, i) => i),
    [timed, filter],
  );
  const box = useRef<HTMLDivElement>(null);
  const rows = useWindowedRows(shown, box, WINDOW);

  const at = currentTime === null ? -1 : lastStartAt(starts, currentTime);
  const spoken = at >= 0 && currentTime! < timed[at]!.end ? at : -1;

  // Keep the spoken line in view inside the list (never scrolls the page).
  useEffect(() => {
    const position = spoken < 0 ? -1 : shown.indexOf(spoken);
    if (position >= 0 && !rows.inView(position)) rows.reveal(position);
    // Only a new spoken line moves the list; the user's scrolling in between is theirs.
  }, [spoken]);

  // The one line in the tab order (its position in the list), and a line to focus once shown.
  const [active, setActive] = useState(0);
  const tabStop = Math.min(active, shown.length - 1);
  const [focusing, setFocusing] = useState<number | null>(null);
  useEffect(() => setActive(0), [shown]);
  useEffect(() => {
    if (focusing === null) return;
    box.current?.querySelector<HTMLElement>(`[data-position="${focusing}"]`)?.focus();
    setFocusing(null);
  }, [focusing]);

  const onKeyDown = (event: KeyboardEvent) => {
    const last = shown.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: tabStop + 1,
      ArrowUp: tabStop - 1,
      PageDown: tabStop + PAGE_LINES,
      PageUp: tabStop - PAGE_LINES,
      Home: 0,
      End: last,
    };
    const to = moves[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const position = Math.min(last, Math.max(0, to));
    if (!rows.inView(position)) rows.reveal(position);
    setActive(position);
    setFocusing(position);
  };

  const terms = useMemo(() => (filter ? [filter] : []), [filter]);

  return (
    <section className={styles.panel} aria-labelledby={`${id}-title`} data-testid="transcript">
      <Heading id={`${id}-title`} className={level === 2 ? styles.heading : styles.subheading}>
        {t('transcript.title')}
      </Heading>
      {timed.length === 0 ? (
        <p className={styles.muted} data-testid="transcript-note">
          {t(
            note === 'none_spoken'
              ? 'transcript.noneSpoken'
              : note === 'none_embedded'
                ? 'transcript.noneEmbedded'
                : 'transcript.none',
          )}
        </p>
      ) : (
        <>
          <input
            type="search"
            className={styles.filter}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            aria-label={t('transcript.filter')}
            placeholder={t('transcript.filter')}
          />
          <p className={styles.muted} aria-live="polite">
            {filter
              ? shown.length === 0
                ? t('transcript.noMatch', { query: query.trim() })
                : t('transcript.matches', { count: shown.length, total: timed.length })
              : t('transcript.lines', { total: timed.length })}
          </p>
          {shown.length > 0 ? (
            <div className={styles.box} ref={box} onScroll={rows.onScroll}>
              <ol
                className={styles.lines}
                aria-labelledby={`${id}-title`}
                style={{ paddingTop: rows.before, paddingBottom: rows.after }}
                onKeyDown={onKeyDown}
              >
                {shown.slice(rows.start, rows.end).map((i, n) => (
                  <Line
                    key={i}
                    cue={timed[i]!}
                    position={rows.start + n}
                    size={shown.length}
                    spoken={i === spoken}
                    tabbable={rows.start + n === tabStop}
                    terms={terms}
                    onSeek={onSeek}
                    onFocus={setActive}
                  />
                ))}
              </ol>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

const Line = memo(function Line({
  cue,
  position,
  size,
  spoken,
  tabbable,
  terms,
  onSeek,
  onFocus,
}: {
  cue: TimedCue;
  /** Its place in the list (from 0) and the list's length: only a window is in the document. */
  position: number;
  size: number;
  spoken: boolean;
  tabbable: boolean;
  terms: readonly string[];
  onSeek: (seconds: number) => void;
  onFocus: (position: number) => void;
}) {
  return (
    <li aria-posinset={position + 1} aria-setsize={size}>
      <button
        type="button"
        className={styles.line}
        aria-current={spoken ? 'true' : undefined}
        tabIndex={tabbable ? 0 : -1}
        data-position={position}
        onClick={() => onSeek(cue.start)}
        onFocus={() => onFocus(position)}
      >
        <span className={styles.time}>{clock(cue.start)}</span>{' '}
        <span>{highlight(cue.text, terms)}</span>
      </button>
    </li>
  );
});
