// The transcript (issue 29): the captions with their times and a box that filters them; a line
// seeks the player and the line being spoken is highlighted. Long transcripts render in batches
// (use-revealed-rows), so 2,000 lines never make one long task; without captions it says why.
import { memo, useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { highlight } from '../../../lib/highlight';
import { useT } from '../../../lib/locale-context';
import type { CaptionCue, CaptionsNote } from '../api';
import { clock, lastStartAt, toSeconds } from '../../../lib/timecode';
import { useRevealedRows } from '../use-revealed-rows';
import styles from './Transcript.module.css';

/** Lines per batch: a line is one plain button, far lighter than a video row. */
const LINE_BATCH = 100;

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
  const count = useRevealedRows(shown.length, filter, LINE_BATCH);

  const at = currentTime === null ? -1 : lastStartAt(starts, currentTime);
  const spoken = at >= 0 && currentTime! < timed[at]!.end ? at : -1;

  // Keep the spoken line in view inside the list (never scrolls the page).
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const box = list.current;
    const line = box?.querySelector<HTMLElement>('[aria-current="true"]');
    if (!box || !line) return;
    const top = line.offsetTop;
    if (top < box.scrollTop || top + line.offsetHeight > box.scrollTop + box.clientHeight)
      box.scrollTop = top - box.clientHeight / 3;
  }, [spoken]);

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
            <ol className={styles.lines} ref={list} aria-labelledby={`${id}-title`}>
              {shown.slice(0, count).map((i) => (
                <Line key={i} cue={timed[i]!} spoken={i === spoken} terms={terms} onSeek={onSeek} />
              ))}
            </ol>
          ) : null}
        </>
      )}
    </section>
  );
}

const Line = memo(function Line({
  cue,
  spoken,
  terms,
  onSeek,
}: {
  cue: TimedCue;
  spoken: boolean;
  terms: readonly string[];
  onSeek: (seconds: number) => void;
}) {
  return (
    <li>
      <button
        type="button"
        className={styles.line}
        aria-current={spoken ? 'true' : undefined}
        onClick={() => onSeek(cue.start)}
      >
        <span className={styles.time}>{clock(cue.start)}</span>{' '}
        <span>{highlight(cue.text, terms)}</span>
      </button>
    </li>
  );
});
