// One queued upload above the video list: its state, progress, and what the user can do
// (retry a failed upload, cancel, or pick the same file again when the queue lost access to it).
import { Box, Button, Flex, Text } from '@chakra-ui/react';
import { useRef, useState } from 'react';
import type { MessageId } from '../../../lib/i18n';
import { useT } from '../../../lib/locale-context';
import type { JobSummary } from '../../../upload-queue/queue-client';
import { ErrorText, ProgressBar } from './form-parts';
import type * as QueueClientModule from '../../../upload-queue/queue-client';

type QueueClient = typeof QueueClientModule;
const client = (): Promise<QueueClient> => import('../../../upload-queue/queue-client');

const STATE_TEXT: Record<JobSummary['state'], MessageId> = {
  queued: 'upload.state.queued',
  created: 'upload.state.preparing',
  'people-uploaded': 'upload.state.preparing',
  transferring: 'upload.state.uploading',
  completing: 'upload.state.finishing',
  'status-sent': 'upload.state.finishing',
  done: 'upload.state.finishing',
  'waiting-retry': 'upload.state.waitingRetry',
  offline: 'upload.state.offline',
  'waiting-auth': 'upload.state.waitingAuth',
  'needs-file': 'upload.state.needsFile',
  paused: 'upload.state.paused',
  failed: 'upload.state.failed',
  cancelled: 'upload.state.cancelled',
};

const RETRYABLE: JobSummary['state'][] = ['failed', 'waiting-retry', 'offline'];

export function PendingUploadRow({ job }: { job: JobSummary }) {
  const t = useT();
  const fileInput = useRef<HTMLInputElement>(null);
  const [wrongFile, setWrongFile] = useState(false);
  const percent = Math.round(job.progress * 100);

  const provide = async (file: File): Promise<void> => {
    const mismatch = await (await client()).provideFile(job.jobId, file);
    setWrongFile(mismatch !== undefined);
  };

  return (
    <Box
      as="li"
      p="3"
      borderWidth="1px"
      borderRadius="l2"
      borderColor={job.state === 'failed' ? 'red.600' : 'gray.300'}
      data-upload-job={job.jobId}
      data-upload-state={job.state}
    >
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Box minW="0" flex="1">
          <Text fontWeight="medium" truncate>
            {job.filename}
          </Text>
          <Text fontSize="sm" color="gray.700" aria-live="polite">
            {t(STATE_TEXT[job.state], { percent, filename: job.filename })}
            {job.part && job.state === 'transferring'
              ? ` · ${t('upload.state.part', { index: job.part.index, count: job.part.count })}`
              : null}
          </Text>
        </Box>
        <Flex gap="2">
          {job.state === 'needs-file' ? (
            <>
              <input
                ref={fileInput}
                type="file"
                hidden
                aria-label={t('upload.chooseAgainFor', { filename: job.filename })}
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  event.target.value = '';
                  if (file) void provide(file);
                }}
              />
              <Button size="sm" colorPalette="blue" onClick={() => fileInput.current?.click()}>
                {t('upload.chooseAgain')}
              </Button>
            </>
          ) : null}
          {RETRYABLE.includes(job.state) ? (
            <Button
              size="sm"
              variant="outline"
              onClick={() => void client().then((c) => c.retry(job.jobId))}
            >
              {t('upload.retry')}
            </Button>
          ) : null}
          <Button
            size="sm"
            variant="ghost"
            colorPalette="red"
            onClick={() => void client().then((c) => c.cancel(job.jobId))}
          >
            {t('upload.cancelUpload')}
          </Button>
        </Flex>
      </Flex>
      <Box mt="2">
        <ProgressBar
          value={job.progress}
          label={t('upload.progressOf', { filename: job.filename })}
        />
      </Box>
      {job.state === 'failed' && job.error ? <ErrorText>{job.error}</ErrorText> : null}
      {wrongFile ? (
        <ErrorText>{t('upload.wrongFile', { filename: job.filename })}</ErrorText>
      ) : null}
    </Box>
  );
}
