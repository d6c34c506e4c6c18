// Step 2 with many files: how many were chosen, and each one's state (reading, its duration, left
// out and why, already in the archive with "upload it anyway"). Plain elements: a folder of 500
// files renders 500 rows, and they must not freeze the page.
import { Text } from '@chakra-ui/react';
import { formatLength } from '../../../lib/dates';
import type { MessageId } from '../../../lib/i18n';
import { useT } from '../../../lib/locale-context';
import type { BatchSkipReason } from '../../../upload-queue/batch-types';
import type { LeftOutFile } from './chosen-files';
import { isUploadable } from './chosen-rules';
import { isSettled, type ChosenItem } from './use-chosen-files';
import styles from './BatchChoice.module.css';

export const LEFT_OUT_TEXT: Record<BatchSkipReason, MessageId> = {
  'not-a-video': 'upload.leftOut.notAVideo',
  'too-large': 'upload.leftOut.tooLarge',
  unreadable: 'upload.leftOut.unreadable',
  'in-archive': 'upload.inArchive',
};

interface BatchChoiceProps {
  items: ChosenItem[];
  leftOut: LeftOutFile[];
  forced: ReadonlySet<string>;
  onForce: (key: string, force: boolean) => void;
}

function ItemNote({
  item,
  forced,
  onForce,
}: { item: ChosenItem } & Omit<BatchChoiceProps, 'items' | 'leftOut'>) {
  const t = useT();
  if (item.probe === 'probing') return <span className={styles.note}>{t('upload.probing')}</span>;
  if (item.probe === 'failed')
    return <span className={styles.problem}>{t('upload.leftOut.unreadable')}</span>;
  if (item.check === 'in-archive' && item.inArchive) {
    const title = item.inArchive.title ?? item.inArchive.filename;
    return (
      <span className={styles.anyway}>
        <span className={styles.problem}>{t('upload.inArchive', { title })}</span>
        <label className={styles.anyway}>
          <input
            type="checkbox"
            checked={forced.has(item.key)}
            onChange={(event) => onForce(item.key, event.target.checked)}
          />
          {t('upload.uploadAnyway')}
        </label>
      </span>
    );
  }
  const checking = item.check === 'checking' || item.check === 'hashing';
  return (
    <span className={styles.note}>
      {t('upload.duration', { duration: formatLength(item.durationSeconds ?? 0) })}
      {checking ? ` · ${t('upload.checkingArchive')}` : null}
    </span>
  );
}

export function BatchChoice({ items, leftOut, forced, onForce }: BatchChoiceProps) {
  const t = useT();
  // Only files read and checked count either way; the others are still being read.
  const settled = items.filter(isSettled);
  const uploadable = settled.filter((item) => isUploadable(item, forced)).length;
  const read = settled.length;
  return (
    <div>
      <Text fontWeight="medium" aria-live="polite" data-testid="batch-choice-summary">
        {t('upload.batch.summary', {
          count: items.length + leftOut.length,
          upload: uploadable,
          skipped: leftOut.length + read - uploadable,
        })}
      </Text>
      {read < items.length ? (
        <Text fontSize="sm" color="gray.700">
          {t('upload.batch.reading', { done: read, count: items.length })}
        </Text>
      ) : null}
      <ul className={styles.list} aria-label={t('upload.batch.files')}>
        {items.map((item) => (
          <li key={item.key} className={styles.row} data-chosen-file={item.chosen.path}>
            <span className={styles.path}>{item.chosen.path}</span>
            <ItemNote item={item} forced={forced} onForce={onForce} />
          </li>
        ))}
        {leftOut.map((file) => (
          <li key={`left-out:${file.path}`} className={styles.row} data-chosen-file={file.path}>
            <span className={styles.path}>{file.path}</span>
            <span className={styles.problem}>{t(LEFT_OUT_TEXT[file.reason])}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
