// Step 2 of the upload dialog: the video file (name, duration, remove), the progress of handing
// it to the upload queue, and the output language.
import { Box, Button, Flex, Stack, Text } from '@chakra-ui/react';
import { useId } from 'react';
import { formatLength } from '../../../lib/dates';
import type { MessageId } from '../../../lib/i18n';
import { useT } from '../../../lib/locale-context';
import type { OutputLanguage } from '../api';
import type { ProbeState } from '../hooks/use-video-probe';
import { ErrorText, Label, ProgressBar, Select } from './form-parts';
import { VideoDropZone, type PickedVideo } from './VideoDropZone';

interface FileStepProps {
  file: File | null;
  fileError: MessageId | undefined;
  probe: ProbeState;
  languages: OutputLanguage[] | undefined;
  languagesFailed: boolean;
  outputLanguage: string;
  onLanguage: (code: string) => void;
  onPick: (picked: PickedVideo) => void;
  onRemove: () => void;
  progress: number;
  canUpload: boolean;
  onBack: () => void;
  onUpload: () => void;
}

export function FileStep(props: FileStepProps) {
  const t = useT();
  const id = useId();
  const { file, fileError, probe } = props;

  return (
    <Stack gap="5">
      {file ? (
        <Box borderWidth="1px" borderColor="gray.300" borderRadius="l2" p="3">
          <Flex justify="space-between" align="center" gap="3">
            <Box minW="0">
              <Text fontWeight="medium" truncate data-testid="chosen-video-name">
                {file.name}
              </Text>
              <Text fontSize="sm" color="gray.700" aria-live="polite">
                {probe.status === 'probing' ? t('upload.probing') : null}
                {probe.status === 'done'
                  ? t('upload.duration', { duration: formatLength(probe.probe.durationSeconds) })
                  : null}
              </Text>
            </Box>
            <Button size="sm" variant="outline" colorPalette="red" onClick={props.onRemove}>
              {t('upload.removeFile')}
            </Button>
          </Flex>
          {fileError ? <ErrorText>{t(fileError)}</ErrorText> : null}
          {probe.status === 'error' && !fileError ? (
            <ErrorText>{t('upload.probeFailed')}</ErrorText>
          ) : null}
          <Box mt="3">
            <ProgressBar value={props.progress} label={t('upload.progress')} />
          </Box>
        </Box>
      ) : (
        <VideoDropZone onPick={props.onPick} />
      )}

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
