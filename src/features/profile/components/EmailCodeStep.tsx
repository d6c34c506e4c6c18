// Step 2 of the e-mail change: the code from the message, a way back to step 1 and a resend.
import { Button, Flex, Stack, Text } from '@chakra-ui/react';
import type { FormEvent } from 'react';
import { NeedsNetwork } from '../../../components/NeedsNetwork';
import { useT } from '../../../lib/locale-context';
import { InlineError } from './InlineError';
import { isOtpComplete, OtpInput, type OtpDigits } from './OtpInput';

interface EmailCodeStepProps {
  email: string;
  digits: OtpDigits;
  onDigits: (digits: OtpDigits) => void;
  verifying: boolean;
  resending: boolean;
  /** Seconds before another code may be asked for. */
  cooldown: number;
  error: string | null;
  notice: string | null;
  onVerify: () => void;
  onResend: () => void;
  onBack: () => void;
}

export function EmailCodeStep(props: EmailCodeStepProps) {
  const t = useT();
  const { digits, verifying, cooldown, resending } = props;
  const complete = isOtpComplete(digits);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (complete && !verifying) props.onVerify();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="5">
        <Text color="gray.800">
          {t('profile.email.codeSent', { length: digits.length, email: props.email })}
        </Text>
        <OtpInput
          digits={digits}
          onChange={props.onDigits}
          label={t('profile.email.stepVerify')}
          invalid={props.error !== null}
          disabled={verifying}
        />
        <InlineError text={props.error} />
        {props.notice && !props.error ? (
          <Text role="status" color="green.700" fontSize="sm">
            {props.notice}
          </Text>
        ) : null}
        <Flex gap="3" wrap="wrap" align="center">
          <NeedsNetwork>
            <Button
              type="submit"
              colorPalette="blue"
              disabled={!complete || verifying}
              loading={verifying}
            >
              {t('profile.email.verify')}
            </Button>
          </NeedsNetwork>
          <NeedsNetwork>
            <Button
              type="button"
              variant="outline"
              disabled={cooldown > 0 || resending}
              loading={resending}
              onClick={props.onResend}
            >
              {cooldown > 0
                ? t('profile.email.resendIn', { seconds: cooldown })
                : t('profile.email.resend')}
            </Button>
          </NeedsNetwork>
        </Flex>
        <Button
          type="button"
          variant="plain"
          colorPalette="blue"
          alignSelf="flex-start"
          px="0"
          textDecoration="underline"
          onClick={props.onBack}
        >
          {t('profile.email.back')}
        </Button>
      </Stack>
    </form>
  );
}
