// The full video in its modal (issue 29): its poster, the captions track (on by default), the
// scenes as chapters with the one playing marked, buttons and keys for the previous or next scene
// and play/pause, and the transcript beside it, which follows the video and seeks it. Loaded
// lazily: the detail page's first render does not carry the player.
import { Dialog, Grid } from '@chakra-ui/react';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { ModalFrame } from '../../../components/ModalFrame';
import { assetUrl } from '../../../lib/asset-url';
import { useLocale, useT } from '../../../lib/locale-context';
import type { VideoDetail } from '../api';
import { clock, lastStartAt, toSeconds } from '../../../lib/timecode';
import { PlayerChapters, type Chapter } from './PlayerChapters';
import styles from './Player.module.css';
import { TranscriptPanel } from './TranscriptPanel';

export interface FullVideoModalProps {
  video: VideoDetail;
  /** Where to start, in seconds (a transcript line, a deep link's t). */
  startAt: number;
  onClose: () => void;
}

/** The captions' language named in the user's language ("English", "英語"); the tag if unknown. */
function languageName(tag: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** Keys that act on the player wherever focus is inside it, except in a text field. */
const KEY_ACTIONS = { n: 'next', p: 'previous', k: 'toggle' } as const;

/** HTMLMediaElement.HAVE_METADATA: the duration is known and the element can seek. */
const HAVE_METADATA = 1;

export function FullVideoModal({ video, startAt, onClose }: FullVideoModalProps) {
  const t = useT();
  const { locale } = useLocale();
  const ref = useRef<HTMLVideoElement>(null);
  const [time, setTime] = useState(startAt);
  const [duration, setDuration] = useState(0);
  const [playing, setPlaying] = useState(false);
  // The chapters and transcript mount a task after the dialog, so opening is not one long task.
  const [rest, setRest] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setRest(true), 0);
    return () => window.clearTimeout(timer);
  }, []);
  const title = video.title || video.filename;
  const src = assetUrl(video.videoPath, 'input');
  const track = video.captionsTrack ? assetUrl(video.captionsTrack.path) : null;

  const chapters = useMemo<Chapter[]>(
    () =>
      (video.outputData?.scenes ?? []).map((scene) => ({
        index: scene.index,
        start: toSeconds(scene.startTime),
        end: toSeconds(scene.endTime),
        thumbnail: scene.thumbnail,
      })),
    [video.outputData],
  );
  const starts = useMemo(() => chapters.map((c) => c.start), [chapters]);
  const current = lastStartAt(starts, time);

  // Where the video starts and how long it lasts, taken once its metadata is known.
  const started = useRef(false);
  const onMetadata = useCallback(
    (player: HTMLVideoElement) => {
      setDuration(Number.isFinite(player.duration) ? player.duration : 0);
      if (started.current) return;
      started.current = true;
      if (startAt > 0) player.currentTime = startAt;
    },
    [startAt],
  );
  // React drops the events a media element sends before its tree is committed, and the lazy
  // dialog may commit after the video has read its metadata and started playing: without this the
  // deep link's time was lost and the Play/Pause button said Play under a playing video.
  useEffect(() => {
    const player = ref.current;
    if (!player) return;
    if (player.readyState >= HAVE_METADATA) onMetadata(player);
    setPlaying(!player.paused);
  }, [onMetadata]);

  const seek = useCallback((seconds: number) => {
    const player = ref.current;
    if (!player) return;
    player.currentTime = seconds;
    setTime(seconds);
    void player.play()?.catch(() => undefined); // a refused autoplay leaves it paused
  }, []);

  const toggle = () => {
    const player = ref.current;
    if (!player) return;
    if (player.paused) void player.play()?.catch(() => undefined);
    else player.pause();
  };
  const step = (by: 1 | -1) => {
    const to = chapters[Math.min(chapters.length - 1, Math.max(0, current + by))];
    if (to) seek(to.start);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement;
    if (event.altKey || event.ctrlKey || event.metaKey || target.tagName === 'INPUT') return;
    const action = KEY_ACTIONS[event.key.toLowerCase() as keyof typeof KEY_ACTIONS];
    if (!action) return;
    event.preventDefault();
    if (action === 'toggle') toggle();
    else step(action === 'next' ? 1 : -1);
  };

  const now = current >= 0 ? chapters[current] : undefined;

  return (
    <ModalFrame open onClose={onClose} size="cover" closeButton>
      <Dialog.Header>
        <Dialog.Title>{title}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body pb="6">
        <Grid templateColumns={{ base: '1fr', lg: 'minmax(0, 2fr) minmax(16rem, 1fr)' }} gap="6">
          <div role="group" aria-label={t('player.label', { title })} onKeyDown={onKeyDown}>
            {src ? (
              <video
                ref={ref}
                className={styles.video}
                src={src}
                poster={assetUrl(video.videoThumbnailPath) ?? undefined}
                controls
                autoPlay
                preload="metadata"
                aria-label={t('player.video', { title })}
                data-testid="full-video"
                onLoadedMetadata={(event) => onMetadata(event.currentTarget)}
                onTimeUpdate={(event) => setTime(event.currentTarget.currentTime)}
                onSeeked={(event) => setTime(event.currentTarget.currentTime)}
                onPlay={() => setPlaying(true)}
                onPause={() => setPlaying(false)}
              >
                {track && video.captionsTrack ? (
                  <track
                    kind="captions"
                    src={track}
                    srcLang={video.captionsTrack.language}
                    label={languageName(video.captionsTrack.language, locale)}
                    default
                  />
                ) : null}
              </video>
            ) : null}
            {rest && chapters.length > 0 ? (
              <>
                <div className={styles.controls}>
                  <button type="button" className={styles.control} onClick={() => step(-1)}>
                    {t('player.previousScene')}
                  </button>
                  <button type="button" className={styles.control} onClick={toggle}>
                    {playing ? t('player.pause') : t('player.play')}
                  </button>
                  <button type="button" className={styles.control} onClick={() => step(1)}>
                    {t('player.nextScene')}
                  </button>
                  <span className={styles.now} data-testid="current-scene">
                    {now
                      ? t('player.now', {
                          n: now.index,
                          start: clock(now.start),
                          end: clock(now.end),
                        })
                      : null}
                  </span>
                </div>
                <PlayerChapters
                  chapters={chapters}
                  duration={duration}
                  current={current}
                  onSeek={seek}
                />
                <p className={styles.hint}>{t('player.keys')}</p>
              </>
            ) : null}
          </div>
          {rest ? (
            <TranscriptPanel
              cues={video.outputData?.captions ?? []}
              note={video.captionsNote}
              currentTime={time}
              onSeek={seek}
              level={3}
            />
          ) : null}
        </Grid>
      </Dialog.Body>
    </ModalFrame>
  );
}
