// The video's downloads (issue 29): captions as .vtt and .srt, the scene list as CSV and the whole
// analysis as JSON, each a signed link the server answers as an attachment named after the video.
// A disclosure (a button with aria-expanded and the list it shows): Escape closes it and puts the
// focus back on its button, as does choosing a file; a click or the focus going elsewhere closes
// it. Each file is made by the server on request, so offline the button is disabled and says why
// (the offline rule of every action that asks the server something new).
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { NeedsNetwork } from '../../../components/NeedsNetwork';
import { useT } from '../../../lib/locale-context';
import { useOnline } from '../../../lib/offline';
import { assetUrl } from '../../../lib/asset-url';
import type { MessageId } from '../../../lib/i18n';
import type { VideoDownloads } from '../api';
import styles from './DownloadsMenu.module.css';

const ITEMS: [keyof VideoDownloads, MessageId][] = [
  ['captionsVtt', 'downloads.captionsVtt'],
  ['captionsSrt', 'downloads.captionsSrt'],
  ['scenesCsv', 'downloads.scenesCsv'],
  ['analysisJson', 'downloads.analysisJson'],
];

export function DownloadsMenu({ downloads }: { downloads: VideoDownloads | undefined }) {
  const t = useT();
  const online = useOnline();
  const [open, setOpen] = useState(false);
  const shown = open && online;
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const listId = useId();
  useEffect(() => {
    if (!shown) return;
    // A press anywhere else closes the list (and still does its own work).
    const onPointerDown = (event: PointerEvent): void => {
      if (event.target instanceof Node && !root.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [shown]);
  const links = ITEMS.flatMap(([key, label]) => {
    const href = assetUrl(downloads?.[key]);
    return href ? [{ key, href, label: t(label) }] : [];
  });
  if (links.length === 0) return null;

  const closeToButton = (): void => {
    setOpen(false);
    button.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape' || !shown) return;
    // The page's own Escape handlers (a dialog) must not also act on this one.
    event.stopPropagation();
    closeToButton();
  };
  return (
    <div
      ref={root}
      className={styles.menu}
      data-testid="downloads"
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        const next = event.relatedTarget;
        if (next instanceof Node && !event.currentTarget.contains(next)) setOpen(false);
      }}
    >
      <NeedsNetwork>
        <button
          ref={button}
          type="button"
          className={styles.button}
          aria-expanded={shown}
          aria-controls={shown ? listId : undefined}
          onClick={() => setOpen((was) => !was)}
        >
          {t('downloads.title')}
        </button>
      </NeedsNetwork>
      {shown ? (
        <ul id={listId} className={styles.items}>
          {links.map((link) => (
            <li key={link.key}>
              <a className={styles.item} href={link.href} download onClick={closeToButton}>
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
