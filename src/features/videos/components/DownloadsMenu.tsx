// The video's downloads (issue 29): captions as .vtt and .srt, the scene list as CSV and the whole
// analysis as JSON, each a signed link the server answers as an attachment named after the video.
// Each file is made by the server on request, so offline the menu is a disabled button that says
// why (the offline rule of every action that asks the server something new).
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
  const links = ITEMS.flatMap(([key, label]) => {
    const href = assetUrl(downloads?.[key]);
    return href ? [{ key, href, label: t(label) }] : [];
  });
  const online = useOnline();
  if (links.length === 0) return null;
  if (!online) {
    return (
      <NeedsNetwork>
        <button type="button" className={styles.summary}>
          {t('downloads.title')}
        </button>
      </NeedsNetwork>
    );
  }
  return (
    <details className={styles.menu} data-testid="downloads">
      <summary className={styles.summary}>{t('downloads.title')}</summary>
      <ul className={styles.items}>
        {links.map((link) => (
          <li key={link.key}>
            <a className={styles.item} href={link.href} download>
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
