// Step 2 of the upload dialog: the video file or files (one file: its name, duration and Remove;
// many or a folder: the batch list), the progress of handing them to the upload queue, and the
// output language.
import { Box, Button, Flex, Stack, Text } from '@chakra-ui/react';
import { useId } from 'react';
import { BATCH_MAX_FILES } from '../../../config/limits';
import { formatLength } from '../../../lib/dates';
import type { MessageId } from '../../../lib/i18n';
import { useT } from '../../../lib/locale-context';
import type { OutputLanguage } from '../api';
import { BatchChoice } from '../batch/BatchChoice';
import type { SortedChoice } from '../batch/chosen-files';
import type { ChosenItem } from '../batch/use-chosen-files';
import { ErrorText, Label, ProgressBar, Select } from './form-parts';
import { VideoDropZone } from './VideoDropZone';

interface FileStepProps {
  choice: SortedChoice | null;
  items: ChosenItem[];
  /** Set when one file is chosen and it breaks a rule (too large). */
  fileError: MessageId | undefined;
  /** Files in the archive the user asked to upload anyway, by item key. */
  forced: ReadonlySet<string>;
  onForce: (key: string, force: boolean) => void;
  /** The browser refused to queue them (no room left): said in words. */
  queueError: MessageId | undefined;
  languages: OutputLanguage[] | undefined;
  languagesFailed: boolean;
  outputLanguage: string;
  onLanguage: (code: string) => void;
  onPick: (choice: SortedChoice) => void;
  onRemove: () => void;
  progress: number;
  canUpload: boolean;
  onBack: () => void;
  onUpload: () => void;
}

/** One file chosen, as the dialog always showed it (product-spec section 2). */
export function isSingleChoice(choice: SortedChoice): boolean {
  const total = choice.accepted.length + choice.leftOut.length;
  return total === 1 && (choice.accepted.length === 1 || choice.leftOut[0]?.reason === 'too-large');
}

function SingleFile(props: FileStepProps & { choice: SortedChoice }) {
  const t = useT();
  const { items, fileError, forced } = props;
  const item = items[0];
  const name = props.choice.accepted[0]?.file.name ?? props.choice.leftOut[0]?.file?.name ?? '';
  const inArchive = item?.check === 'in-archive' ? item.inArchive : undefined;
  return (
    <Box borderWidth="1px" borderColor="gray.300" borderRadius="l2" p="3">
      <Flex justify="space-between" align="center" gap="3">
        <Box minW="0">
          <Text fontWeight="medium" truncate data-testid="chosen-video-name">
            {name}
          </Text>
          <Text fontSize="sm" color="gray.700" aria-live="polite">
            {item?.probe === 'probing' ? t('upload.probing') : null}
            {item?.probe === 'done' && item.durationSeconds !== undefined
              ? t('upload.duration', { duration: formatLength(item.durationSeconds) })
              : null}
          </Text>
        </Box>
        <Button size="sm" variant="outline" colorPalette="red" onClick={props.onRemove}>
          {t('upload.removeFile')}
        </Button>
      </Flex>
      {fileError ? <ErrorText>{t(fileError)}</ErrorText> : null}
      {item?.probe === 'failed' && !fileError ? (
        <ErrorText>{t('upload.probeFailed')}</ErrorText>
      ) : null}
      {item && inArchive ? (
        <Box mt="2">
          <ErrorText>
            {t('upload.inArchive', { title: inArchive.title ?? inArchive.filename })}
          </ErrorText>
          <label>
            <input
              type="checkbox"
              checked={forced.has(item.key)}
              onChange={(event) => props.onForce(item.key, event.target.checked)}
            />{' '}
            {t('upload.uploadAnyway')}
          </label>
        </Box>
      ) : null}
      <Box mt="3">
        <ProgressBar value={props.progress} label={t('upload.progress')} />
      </Box>
    </Box>
  );
}

export function FileStep(props: FileStepProps) {
  const t = useT();
  const id = useId();
  const { choice } = props;

  return (
    <Stack gap="5">
      {!choice ? (
        <VideoDropZone onPick={props.onPick} />
      ) : isSingleChoice(choice) ? (
        <SingleFile {...props} choice={choice} />
      ) : (
        <Box>
          <BatchChoice
            items={props.items}
            leftOut={choice.leftOut}
            forced={props.forced}
            onForce={props.onForce}
          />
          {choice.tooMany ? (
            <ErrorText>{t('upload.batch.tooMany', { max: BATCH_MAX_FILES })}</ErrorText>
          ) : null}
          <Flex justify="flex-end" mt="2">
            <Button size="sm" variant="outline" colorPalette="red" onClick={props.onRemove}>
              {t('upload.batch.removeAll')}
            </Button>
          </Flex>
        </Box>
      )}
      {props.queueError ? <ErrorText>{t(props.queueError)}</ErrorText> : null}

      <div>
        <Label htmlFor={`${id}-language`}>{t('upload.outputLanguage')}</Label>
        <Select
          id={`${id}-language`}
          value={props.outputLanguage}
          onChange={(event) => props.onLanguage(event.target.value)}
        >
          {(props.languages ?? []).map((language) => (
            <option key={language.code} value={language.code}>
              {language.name}
            </option>
          ))}
        </Select>
        {props.languagesFailed ? <ErrorText>{t('upload.languagesFailed')}</ErrorText> : null}
      </div>

      <Flex justify="flex-end" gap="3">
        <Button variant="outline" onClick={props.onBack}>
          {t('upload.back')}
        </Button>
        <Button colorPalette="blue" disabled={!props.canUpload} onClick={props.onUpload}>
          {t('upload.submit')}
        </Button>
      </Flex>
    </Stack>
  );
}
