// The two-step upload dialog (product-spec section 2). Step 2 takes one file, many, or a folder
// (issue 42). Upload hands everything to the durable upload queue, which writes it to IndexedDB
// before anything is sent; the dialog then resets, closes and refreshes the list while the queue
// uploads (one file's row, or a batch's panel, shows above the list).
import { Dialog, Text } from '@chakra-ui/react';
import { useCallback, useMemo, useState } from 'react';
import { LazyAppModal } from '../../../components/LazyAppModal';
import { ModalFrame } from '../../../components/ModalFrame';
import type { MessageId } from '../../../lib/i18n';
import { useT } from '../../../lib/locale-context';
import { useAppDispatch } from '../../../lib/store-hooks';
import type { BatchInput } from '../../../upload-queue/batch-client';
import type { EnqueueInput } from '../../../upload-queue/job-factory';
import { invalidateVideoList, useCheckFilesMutation, useSupportedLanguagesQuery } from '../api';
import type { SortedChoice } from '../batch/chosen-files';
import { isUploadable, skippedEntries, toBatchFile } from '../batch/chosen-rules';
import { allSettled, useChosenFiles, type CheckFn, type HashFn } from '../batch/use-chosen-files';
import type { ProbeFn } from '../hooks/use-video-probe';
import {
  canUpload,
  initialDetails,
  peopleOf,
  sharedDetails,
  toEnqueueInput,
  videoFileError,
} from '../upload-rules';
import { DetailsStep } from './DetailsStep';
import { FileStep, isSingleChoice } from './FileStep';

export type EnqueueFn = (input: EnqueueInput) => Promise<string>;
export type EnqueueBatchFn = (input: BatchInput) => Promise<string>;

async function queueEnqueue(input: EnqueueInput): Promise<string> {
  const { enqueueUpload } = await import('../../../upload-queue/queue-client');
  return enqueueUpload(input);
}

async function queueEnqueueBatch(input: BatchInput): Promise<string> {
  const { enqueueBatch } = await import('../../../upload-queue/batch-client');
  return enqueueBatch(input);
}

async function workerProbe(file: File, signal?: AbortSignal) {
  const { probeVideo } = await import('../../../upload-queue/probe-bridge');
  return probeVideo(file, signal);
}

async function workerHash(file: File, signal?: AbortSignal): Promise<string> {
  const { hashVideo } = await import('../../../upload-queue/probe-bridge');
  return hashVideo(file, signal);
}

const NO_FILES: SortedChoice['accepted'] = [];

export interface UploadDialogProps {
  open: boolean;
  onClose: () => void;
  /** The worker probe and the queue by default; tests of the dialog alone pass their own. */
  probe?: ProbeFn;
  hash?: HashFn;
  enqueue?: EnqueueFn;
  enqueueBatch?: EnqueueBatchFn;
}

/** The browser's storage is full: queuing wrote nothing. */
const isQuotaError = (error: unknown): boolean =>
  error instanceof DOMException && error.name === 'QuotaExceededError';

export function UploadDialog({
  open,
  onClose,
  probe = workerProbe,
  hash = workerHash,
  enqueue = queueEnqueue,
  enqueueBatch = queueEnqueueBatch,
}: UploadDialogProps) {
  const t = useT();
  const dispatch = useAppDispatch();
  const [step, setStep] = useState<1 | 2>(1);
  const [details, setDetails] = useState(initialDetails);
  const [choice, setChoice] = useState<SortedChoice | null>(null);
  const [forced, setForced] = useState<ReadonlySet<string>>(new Set());
  const [chosenLanguage, setChosenLanguage] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [progress, setProgress] = useState(0);
  const [failed, setFailed] = useState(false);
  const [queueError, setQueueError] = useState<MessageId | undefined>();
  const languages = useSupportedLanguagesQuery(undefined, { skip: !open });
  const [checkFiles] = useCheckFilesMutation();
  const check = useCallback<CheckFn>((files) => checkFiles(files).unwrap(), [checkFiles]);
  const items = useChosenFiles(choice?.accepted ?? NO_FILES, probe, check, hash);

  const single = choice !== null && isSingleChoice(choice);
  const singleFile = single ? (choice.accepted[0]?.file ?? choice.leftOut[0]?.file) : undefined;
  const fileError: MessageId | undefined = singleFile ? videoFileError(singleFile) : undefined;
  // The first listed language is preselected until the user picks another.
  const outputLanguage = chosenLanguage ?? languages.data?.[0]?.code ?? '';
  const settled = allSettled(items) && items.length === (choice?.accepted.length ?? 0);
  const uploadable = useMemo(() => items.filter((i) => isUploadable(i, forced)), [items, forced]);
  const first = items[0];
  const ready = single
    ? canUpload(
        {
          file: singleFile ?? null,
          fileError,
          durationSeconds: first?.durationSeconds,
          videoDate: first?.videoDate,
          outputLanguage,
        },
        uploading,
      ) &&
      settled &&
      uploadable.length === 1
    : choice !== null &&
      !choice.tooMany &&
      settled &&
      uploadable.length > 0 &&
      outputLanguage !== '' &&
      !uploading;

  const choose = (next: SortedChoice | null): void => {
    setChoice(next);
    setForced(new Set());
    setQueueError(undefined);
    setProgress(0);
  };

  const reset = (): void => {
    setStep(1);
    setDetails(initialDetails());
    choose(null);
    setChosenLanguage(null);
  };

  const close = (): void => {
    if (uploading) return;
    reset();
    onClose();
  };

  const queue = async (): Promise<void> => {
    if (single && first?.durationSeconds !== undefined && first.videoDate !== undefined) {
      const { chosen } = first;
      await enqueue(
        toEnqueueInput(
          details,
          chosen.file,
          { durationSeconds: first.durationSeconds, videoDate: first.videoDate },
          outputLanguage,
          chosen.handle,
          { contentSha256: first.sha256, allowDuplicate: forced.has(first.key) },
        ),
      );
      return;
    }
    await enqueueBatch({
      details: sharedDetails(details, outputLanguage),
      people: peopleOf(details),
      files: uploadable.map((item) => toBatchFile(item, forced)),
      skipped: skippedEntries(items, choice?.leftOut ?? [], forced),
    });
  };

  const upload = async (): Promise<void> => {
    if (!ready) return;
    setUploading(true);
    try {
      await queue();
      setProgress(1);
      dispatch(invalidateVideoList());
      reset();
      onClose();
    } catch (error) {
      if (isQuotaError(error)) setQueueError('upload.quotaFull');
      else setFailed(true);
    } finally {
      setUploading(false);
    }
  };

  return (
    <>
      <ModalFrame open={open} onClose={close} scrollBehavior="inside" size="lg">
        <Dialog.Header flexDirection="column" alignItems="flex-start" gap="1">
          <Dialog.Title>{t('upload.title')}</Dialog.Title>
          <Text fontSize="sm" color="gray.700">
            {t(step === 1 ? 'upload.step1' : 'upload.step2')}
          </Text>
        </Dialog.Header>
        <Dialog.Body pb="6">
          {step === 1 ? (
            <DetailsStep
              details={details}
              onChange={setDetails}
              onCancel={close}
              onNext={() => setStep(2)}
            />
          ) : (
            <FileStep
              choice={choice}
              items={items}
              fileError={fileError}
              forced={forced}
              onForce={(key, force) =>
                setForced((before) => {
                  const after = new Set(before);
                  if (force) after.add(key);
                  else after.delete(key);
                  return after;
                })
              }
              queueError={queueError}
              languages={languages.data}
              languagesFailed={languages.isError}
              outputLanguage={outputLanguage}
              onLanguage={setChosenLanguage}
              onPick={choose}
              onRemove={() => choose(null)}
              progress={progress}
              canUpload={ready}
              onBack={() => setStep(1)}
              onUpload={() => void upload()}
            />
          )}
        </Dialog.Body>
      </ModalFrame>
      <LazyAppModal
        open={failed}
        type="error"
        lines={[t('common.genericError')]}
        onClose={() => setFailed(false)}
      />
    </>
  );
}
