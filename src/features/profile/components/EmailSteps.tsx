// The step sidebar of the e-mail change: a step can be opened only once it has been reached.
import { chakra, Stack } from '@chakra-ui/react';
import type { MessageId } from '../../../lib/i18n';
import { useT } from '../../../lib/locale-context';

export type EmailStep = 1 | 2;

const LABELS: Record<EmailStep, MessageId> = {
  1: 'profile.email.stepRequest',
  2: 'profile.email.stepVerify',
};

const StepButton = chakra('button', {
  base: {
    display: 'flex',
    alignItems: 'center',
    gap: '3',
    w: 'full',
    px: '3',
    py: '2',
    borderRadius: 'l2',
    textAlign: 'start',
    color: 'gray.800',
    cursor: 'pointer',
    _hover: { bg: 'gray.100' },
    _disabled: { color: 'gray.500', cursor: 'not-allowed', _hover: { bg: 'transparent' } },
    '&[aria-current=step]': { bg: 'blue.50', color: 'blue.800', fontWeight: 'semibold' },
    _focusVisible: { outline: '2px solid', outlineColor: 'blue.600' },
  },
});

const StepNumber = chakra('span', {
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    boxSize: '7',
    flexShrink: 0,
    borderRadius: 'full',
    borderWidth: '1px',
    borderColor: 'currentColor',
    fontSize: 'sm',
  },
});

interface EmailStepsProps {
  current: EmailStep;
  reached: EmailStep;
  onSelect: (step: EmailStep) => void;
}

export function EmailSteps({ current, reached, onSelect }: EmailStepsProps) {
  const t = useT();
  return (
    <nav aria-label={t('profile.email.steps')}>
      <Stack as="ol" listStyleType="none" gap="1">
        {([1, 2] as const).map((step) => (
          <li key={step}>
            <StepButton
              type="button"
              disabled={step > reached}
              aria-current={step === current ? 'step' : undefined}
              onClick={() => onSelect(step)}
            >
              <StepNumber aria-hidden="true">{step}</StepNumber>
              {t(LABELS[step])}
            </StepButton>
          </li>
        ))}
      </Stack>
    </nav>
  );
}
