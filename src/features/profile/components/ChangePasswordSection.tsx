// Change password; also the forced first change of an initial password (docs/decisions/forced-password-change.md).
// Success shows inline so the menu stays usable; failures open the error dialog (section 8).
import { Alert, Heading, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { LazyAppModal } from '../../../components/LazyAppModal';
import { TextField } from '../../../components/TextField';
import { describeServerError } from '../../../lib/error-messages';
import { useT } from '../../../lib/locale-context';
import { persistSession } from '../../../lib/session';
import { selectCurrentUser, selectMustChangePassword, signedIn } from '../../../lib/session-slice';
import { useAppDispatch, useAppSelector } from '../../../lib/store-hooks';
import { useForm } from '../../../lib/use-form';
import { matches, passwordRules, required, type Rule } from '../../../lib/validation';
import { useChangePasswordMutation } from '../api';
import { SubmitButton } from './SubmitButton';

type Field = 'current' | 'next' | 'confirmation';
const RULES: Record<Field, Rule[]> = {
  current: passwordRules,
  next: passwordRules,
  confirmation: [required, matches('next')],
};
const INITIAL: Record<Field, string> = { current: '', next: '', confirmation: '' };

export function ChangePasswordSection() {
  const t = useT();
  const dispatch = useAppDispatch();
  const forced = useAppSelector(selectMustChangePassword);
  const sessionUser = useAppSelector(selectCurrentUser);
  const form = useForm({ initialValues: INITIAL, rules: RULES });
  const [changePassword, { isLoading }] = useChangePasswordMutation();
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.canSubmit || isLoading) return;
    setDone(false);
    try {
      await changePassword({
        current_password: form.values.current,
        new_password: form.values.next,
        confirmation_password: form.values.confirmation,
      }).unwrap();
      if (sessionUser) {
        const user = { ...sessionUser.user, mustChangePassword: false };
        dispatch(signedIn({ ...sessionUser, user }));
        await dispatch(persistSession());
      }
      form.reset();
      setDone(true);
    } catch (error) {
      setFailure(describeServerError(error, t('common.unknownError')));
    }
  };

  return (
    <>
      <Heading as="h2" size="lg" mb="4">
        {t('password.title')}
      </Heading>
      {forced ? (
        <Alert.Root status="warning" mb="5">
          <Alert.Indicator />
          <Alert.Title>{t('password.mustChange')}</Alert.Title>
        </Alert.Root>
      ) : null}
      {done ? (
        <Alert.Root status="success" mb="5" role="status">
          <Alert.Indicator />
          <Alert.Title>{t('password.success')}</Alert.Title>
        </Alert.Root>
      ) : null}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="5">
          <TextField
            label={t('password.current')}
            type="password"
            autoComplete="current-password"
            binding={form.bind('current')}
            error={form.errors.current}
          />
          <TextField
            label={t('password.new')}
            type="password"
            autoComplete="new-password"
            helperText={t('password.rules')}
            binding={form.bind('next')}
            error={form.errors.next}
          />
          <TextField
            label={t('password.confirm')}
            type="password"
            autoComplete="new-password"
            binding={form.bind('confirmation')}
            error={form.errors.confirmation}
          />
          <SubmitButton canSubmit={form.canSubmit} busy={isLoading}>
            {t('password.save')}
          </SubmitButton>
        </Stack>
      </form>
      <LazyAppModal
        open={failure !== null}
        type="error"
        lines={failure ? [failure] : []}
        onClose={() => setFailure(null)}
      />
    </>
  );
}
