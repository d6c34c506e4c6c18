// The Make trailer / Make report dialog: the context text and a 500-character instruction;
// submit stays disabled while the instruction is empty or the request runs (product-spec 5).
import { Button, Dialog, Field, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { ModalFrame } from '../../../components/ModalFrame';
import { TEXT_AREA_MAX_LENGTH } from '../../../config/limits';
import { describeServerError } from '../../../lib/error-messages';
import { useT } from '../../../lib/locale-context';
import { useMakeOutputMutation, type OutputKind } from '../api';

interface InstructionDialogProps {
  kind: OutputKind;
  videoId: string;
  open: boolean;
  onClose: () => void;
}

const TEXTS = {
  trailer: {
    title: 'outputs.trailerTitle',
    context: 'outputs.trailerContext',
    placeholder: 'outputs.trailerPlaceholder',
    submit: 'outputs.createTrailer',
  },
  report: {
    title: 'outputs.reportTitle',
    context: 'outputs.reportContext',
    placeholder: 'outputs.reportPlaceholder',
    submit: 'outputs.createReport',
  },
} as const;

export function InstructionDialog({ kind, videoId, open, onClose }: InstructionDialogProps) {
  const t = useT();
  const texts = TEXTS[kind];
  const [instruction, setInstruction] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [makeOutput, { isLoading }] = useMakeOutputMutation();
  const empty = instruction.trim() === '';

  const close = (): void => {
    setInstruction('');
    setError(null);
    onClose();
  };

  const submit = async (): Promise<void> => {
    setError(null);
    const result = await makeOutput({ kind, videoId, instruction: instruction.trim() });
    if ('error' in result) setError(describeServerError(result.error, t('common.genericError')));
    else close();
  };

  return (
    <ModalFrame open={open} onClose={close} closeButton>
      <Dialog.Header>
        <Dialog.Title>{t(texts.title)}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Text mb="4" color="gray.700">
          {t(texts.context)}
        </Text>
        <Field.Root invalid={error !== null}>
          <Field.Label>{t('outputs.instruction')}</Field.Label>
          <Textarea
            value={instruction}
            maxLength={TEXT_AREA_MAX_LENGTH}
            rows={5}
            placeholder={t(texts.placeholder)}
            onChange={(event) => setInstruction(event.target.value)}
          />
          <Field.HelperText>
            {t('outputs.characters', {
              count: instruction.length,
              max: TEXT_AREA_MAX_LENGTH,
            })}
          </Field.HelperText>
          {error ? <Field.ErrorText whiteSpace="pre-line">{error}</Field.ErrorText> : null}
        </Field.Root>
      </Dialog.Body>
      <Dialog.Footer>
        <Button variant="outline" onClick={close}>
          {t('common.cancel')}
        </Button>
        <Button
          colorPalette="blue"
          disabled={empty || isLoading}
          loading={isLoading}
          onClick={() => void submit()}
        >
          {t(texts.submit)}
        </Button>
      </Dialog.Footer>
    </ModalFrame>
  );
}
