// Step 1 of the e-mail change: the new address and the current password; a code goes out.
import { Stack } from '@chakra-ui/react';
import type { FormEvent } from 'react';
import { TextField } from '../../../components/TextField';
import { useT } from '../../../lib/locale-context';
import type { useForm } from '../../../lib/use-form';
import { InlineError } from './InlineError';
import { SubmitButton } from './SubmitButton';

export type EmailRequestForm = ReturnType<typeof useForm<'newEmail' | 'currentPassword'>>;

interface EmailRequestStepProps {
  form: EmailRequestForm;
  sending: boolean;
  error: string | null;
  onSubmit: () => void;
}

export function EmailRequestStep({ form, sending, error, onSubmit }: EmailRequestStepProps) {
  const t = useT();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.canSubmit && !sending) onSubmit();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="5">
        <TextField
          label={t('profile.email.newEmail')}
          type="email"
          autoComplete="email"
          binding={form.bind('newEmail')}
          error={form.errors.newEmail}
        />
        <TextField
          label={t('password.current')}
          type="password"
          autoComplete="current-password"
          binding={form.bind('currentPassword')}
          error={form.errors.currentPassword}
        />
        <InlineError text={error} />
        <SubmitButton canSubmit={form.canSubmit} busy={sending}>
          {t('profile.email.sendCode')}
        </SubmitButton>
      </Stack>
    </form>
  );
}
