// One upload batch above the video list: how many files wait, upload, are analysed, are done or
// failed; the bytes sent and the time left; each file's state and error in words; and the
// controls (pause and resume all, retry the failed ones, remove a waiting file, cancel). It reads
// the queue's IndexedDB, so it is there again after a reload or when the installed app reopens.
import { Box, Button, Flex, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { formatBytes } from '../../../lib/bytes';
import { formatLength } from '../../../lib/dates';
import { failureMessageId } from '../../../lib/failure-messages';
import type { MessageId } from '../../../lib/i18n';
import { useT } from '../../../lib/locale-context';
import type * as BatchClientModule from '../../../upload-queue/batch-client';
import type { UploadBatch } from '../../../upload-queue/batch-types';
import type { JobSummary } from '../../../upload-queue/queue-client';
import { useVideoStatusesQuery, type VideoStatus } from '../api';
import { ErrorText, ProgressBar } from '../components/form-parts';
import { LEFT_OUT_TEXT } from './BatchChoice';
import {
  batchProgress,
  idsToWatch,
  secondsLeft,
  type BatchFile,
  type BatchFileState,
} from './batch-progress';
import styles from './BatchChoice.module.css';

type BatchClient = typeof BatchClientModule;
const client = (): Promise<BatchClient> => import('../../../upload-queue/batch-client');

const STATUS_POLL_MS = 10_000;
const RATE_WINDOW_MS = 30_000;

const FILE_TEXT: Record<Exclude<BatchFileState, 'left-out'>, MessageId> = {
  waiting: 'batch.file.waiting',
  paused: 'batch.file.paused',
  uploading: 'batch.file.uploading',
  analysing: 'batch.file.analysing',
  done: 'batch.file.done',
  failed: 'batch.file.failed',
  removed: 'batch.file.removed',
};

const WAITING_TEXT: Partial<Record<JobSummary['state'], MessageId>> = {
  offline: 'upload.state.offline',
  'waiting-retry': 'upload.state.waitingRetry',
  'waiting-auth': 'upload.state.waitingAuth',
  'needs-file': 'upload.state.needsFile',
};

function FileRow({ file, onRemove }: { file: BatchFile; onRemove: () => void }) {
  const t = useT();
  const percent = Math.round(file.progress * 100);
  const { entry } = file;
  let text: string;
  if (file.state === 'left-out') {
    const title = entry.inArchive?.title ?? entry.inArchive?.filename ?? '';
    text = t(LEFT_OUT_TEXT[entry.skipped ?? 'unreadable'], { title });
  } else {
    const waiting = file.state === 'waiting' && file.job ? WAITING_TEXT[file.job.state] : undefined;
    text = t(waiting ?? FILE_TEXT[file.state], { percent });
  }
  const removable = file.state === 'waiting' || file.state === 'paused';
  return (
    <li className={styles.row} data-batch-file={entry.path} data-batch-state={file.state}>
      <span className={styles.path}>{entry.path}</span>
      <span
        className={
          file.state === 'failed' || file.state === 'left-out' ? styles.problem : styles.note
        }
      >
        {text}
        {file.state === 'failed' && file.failureCode !== undefined
          ? ` ${t(failureMessageId(file.failureCode))}`
          : null}
        {file.state === 'failed' && file.error ? ` ${file.error}` : null}
      </span>
      {removable ? (
        <Button
          size="xs"
          variant="ghost"
          colorPalette="red"
          onClick={onRemove}
          aria-label={t('batch.removeFile', { path: entry.path })}
        >
          {t('batch.remove')}
        </Button>
      ) : null}
    </li>
  );
}

export function BatchPanel({
  batch,
  jobs,
  onChanged,
}: {
  batch: UploadBatch;
  jobs: ReadonlyMap<string, JobSummary>;
  onChanged: () => void;
}) {
  const t = useT();
  const [showFiles, setShowFiles] = useState(false);
  const [watched, setWatched] = useState<string[]>([]);
  const statusQuery = useVideoStatusesQuery(watched, {
    skip: watched.length === 0,
    pollingInterval: STATUS_POLL_MS,
  });
  const statuses = useMemo(
    () => new Map<string, VideoStatus>((statusQuery.data ?? []).map((s) => [s.id, s])),
    [statusQuery.data],
  );
  const progress = batchProgress(batch, jobs, statuses);
  const toWatch = idsToWatch(progress).join(',');
  useEffect(() => {
    // A new list only when the set changes, so polling is not restarted on every progress message.
    setWatched((before) =>
      before.join(',') === toWatch ? before : toWatch ? toWatch.split(',') : [],
    );
  }, [toWatch]);

  const samples = useRef<{ at: number; sent: number }[]>([]);
  const now = Date.now();
  const last = samples.current[samples.current.length - 1];
  if (!last || last.sent !== progress.sentBytes)
    samples.current.push({ at: now, sent: progress.sentBytes });
  samples.current = samples.current.filter((s) => now - s.at <= RATE_WINDOW_MS);
  const left = progress.open > 0 ? secondsLeft(samples.current, progress.totalBytes) : undefined;

  const act = (action: (c: BatchClient) => Promise<void>): void => {
    void client().then(action).finally(onChanged);
  };
  const { counts } = progress;

  return (
    <Box
      as="section"
      p="3"
      mb="4"
      borderWidth="1px"
      borderRadius="l2"
      borderColor="gray.300"
      aria-label={t('batch.title', { count: batch.entries.length })}
      data-upload-batch={batch.id}
    >
      <Text fontWeight="semibold">{t('batch.title', { count: batch.entries.length })}</Text>
      <Text fontSize="sm" color="gray.700" aria-live="polite" data-testid="batch-counts">
        {t('batch.counts', {
          waiting: counts.waiting + counts.paused,
          uploading: counts.uploading,
          analysing: counts.analysing,
          done: counts.done,
          failed: counts.failed,
          skipped: counts['left-out'],
        })}
      </Text>
      <Text fontSize="sm" color="gray.700" data-testid="batch-sent">
        {t('batch.sent', {
          sent: formatBytes(progress.sentBytes),
          total: formatBytes(progress.totalBytes),
        })}
        {left !== undefined ? ` · ${t('batch.timeLeft', { time: formatLength(left) })}` : null}
      </Text>
      <Box mt="2">
        <ProgressBar
          value={progress.totalBytes > 0 ? progress.sentBytes / progress.totalBytes : 1}
          label={t('batch.title', { count: batch.entries.length })}
        />
      </Box>
      <Flex gap="2" mt="3" wrap="wrap">
        {progress.open > 0 ? (
          progress.paused ? (
            <Button
              size="sm"
              colorPalette="blue"
              onClick={() => act((c) => c.resumeBatch(batch.id))}
            >
              {t('batch.resume')}
            </Button>
          ) : (
            <Button size="sm" variant="outline" onClick={() => act((c) => c.pauseBatch(batch.id))}>
              {t('batch.pause')}
            </Button>
          )
        ) : null}
        {progress.files.some((f) => f.state === 'failed' && f.job) ? (
          <Button size="sm" variant="outline" onClick={() => act((c) => c.retryFailed(batch.id))}>
            {t('batch.retryFailed')}
          </Button>
        ) : null}
        <Button size="sm" variant="ghost" onClick={() => setShowFiles((shown) => !shown)}>
          {t(showFiles ? 'batch.hideFiles' : 'batch.showFiles')}
        </Button>
        {progress.open > 0 ? (
          <Button
            size="sm"
            variant="ghost"
            colorPalette="red"
            onClick={() => act((c) => c.cancelBatch(batch.id))}
          >
            {t('batch.cancel')}
          </Button>
        ) : null}
        {progress.finished ? (
          <Button size="sm" variant="ghost" onClick={() => act((c) => c.dismissBatch(batch.id))}>
            {t('batch.dismiss')}
          </Button>
        ) : null}
      </Flex>
      {progress.files.some((f) => f.state === 'failed') && !showFiles ? (
        <ErrorText>{t('upload.state.failed')}</ErrorText>
      ) : null}
      {showFiles ? (
        <ul className={styles.list} aria-label={t('batch.files')} style={{ marginTop: '0.75rem' }}>
          {progress.files.map((file) => (
            <FileRow
              key={`${file.entry.jobId ?? 'skipped'}:${file.entry.path}`}
              file={file}
              onRemove={() => act((c) => c.removeFromBatch(batch.id, file.entry.jobId!))}
            />
          ))}
        </ul>
      ) : null}
    </Box>
  );
}
