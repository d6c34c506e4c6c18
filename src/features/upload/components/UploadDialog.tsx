// The two-step upload dialog (product-spec section 2). Upload hands everything to the durable
// upload queue, which writes it to IndexedDB before sending anything; the dialog then resets,
// closes and refreshes the list while the queue uploads (its rows show above the list).
import { Dialog, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LazyAppModal } from '../../../components/LazyAppModal';
import { ModalFrame } from '../../../components/ModalFrame';
import type { MessageId } from '../../../lib/i18n';
import { useT } from '../../../lib/locale-context';
import { useAppDispatch } from '../../../lib/store-hooks';
import type { EnqueueInput } from '../../../upload-queue/job-factory';
import { invalidateVideoList, useSupportedLanguagesQuery } from '../api';
import { useVideoProbe, type ProbeFn } from '../hooks/use-video-probe';
import { canUpload, initialDetails, toEnqueueInput, videoFileError } from '../upload-rules';
import { DetailsStep } from './DetailsStep';
import { FileStep } from './FileStep';
import type { PickedVideo } from './VideoDropZone';

export type EnqueueFn = (input: EnqueueInput) => Promise<string>;

async function queueEnqueue(input: EnqueueInput): Promise<string> {
  const { enqueueUpload } = await import('../../../upload-queue/queue-client');
  return enqueueUpload(input);
}

export interface UploadDialogProps {
  open: boolean;
  onClose: () => void;
  /** The worker probe and the queue by default; tests of the dialog alone pass their own. */
  probe?: ProbeFn;
  enqueue?: EnqueueFn;
}

export function UploadDialog({ open, onClose, probe, enqueue = queueEnqueue }: UploadDialogProps) {
  const t = useT();
  const dispatch = useAppDispatch();
  const [step, setStep] = useState<1 | 2>(1);
  const [details, setDetails] = useState(initialDetails);
  const [picked, setPicked] = useState<PickedVideo | null>(null);
  const [chosenLanguage, setChosenLanguage] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [progress, setProgress] = useState(0);
  const [failed, setFailed] = useState(false);
  const languages = useSupportedLanguagesQuery(undefined, { skip: !open });
  const probeState = useVideoProbe(picked?.file ?? null, probe);

  const file = picked?.file ?? null;
  const fileError: MessageId | undefined = file ? videoFileError(file) : undefined;
  // The first listed language is preselected until the user picks another.
  const outputLanguage = chosenLanguage ?? languages.data?.[0]?.code ?? '';
  const probed = probeState.status === 'done' ? probeState.probe : undefined;
  const ready = canUpload(
    {
      file,
      fileError,
      durationSeconds: probed?.durationSeconds,
      videoDate: probed?.videoDate,
      outputLanguage,
    },
    uploading,
  );

  const reset = (): void => {
    setStep(1);
    setDetails(initialDetails());
    setPicked(null);
    setChosenLanguage(null);
    setProgress(0);
  };

  const close = (): void => {
    if (uploading) return;
    reset();
    onClose();
  };

  const upload = async (): Promise<void> => {
    if (!file || !probed || !ready) return;
    setUploading(true);
    try {
      await enqueue(toEnqueueInput(details, file, probed, outputLanguage, picked?.handle));
      setProgress(1);
      dispatch(invalidateVideoList());
      reset();
      onClose();
    } catch {
      setFailed(true);
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
              file={file}
              fileError={fileError}
              probe={probeState}
              languages={languages.data}
              languagesFailed={languages.isError}
              outputLanguage={outputLanguage}
              onLanguage={setChosenLanguage}
              onPick={(next) => {
                setPicked(next);
                setProgress(0);
              }}
              onRemove={() => {
                setPicked(null);
                setProgress(0);
              }}
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
