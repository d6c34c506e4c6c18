// Reset password with the token from the e-mailed link; 401 means the link is spent or expired.
import { Button, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useSearch } from 'wouter';
import { AppLink } from '../../../components/AppLink';
import { LazyAppModal } from '../../../components/LazyAppModal';
import { TextField } from '../../../components/TextField';
import { ROUTES } from '../../../config/routes';
import type { ApiError } from '../../../lib/base-query';
import { useT } from '../../../lib/locale-context';
import { navigateTo } from '../../../lib/navigation';
import { useForm } from '../../../lib/use-form';
import { matches, passwordRules, required, type Rule } from '../../../lib/validation';
import { useResetPassword } from '../api';
import { AuthLayout } from './AuthLayout';

const RULES: Record<'password' | 'confirmation', Rule[]> = {
  password: passwordRules,
  confirmation: [required, matches('password')],
};
const INITIAL = { password: '', confirmation: '' };

export function ResetPasswordPage() {
  const t = useT();
  const resetToken = new URLSearchParams(useSearch()).get('resetToken') ?? '';
  const form = useForm({ initialValues: INITIAL, rules: RULES });
  const [reset, { isLoading }] = useResetPassword();
  const [outcome, setOutcome] = useState<'done' | 'invalid' | 'error' | null>(
    resetToken ? null : 'invalid',
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.canSubmit || isLoading) return;
    try {
      await reset({
        password: form.values.password,
        confirmationPassword: form.values.confirmation,
        resetToken,
      });
      setOutcome('done');
    } catch (error) {
      setOutcome((error as ApiError).status === 401 ? 'invalid' : 'error');
    }
  };

  if (outcome === 'invalid') {
    return (
      <AuthLayout title={t('reset.invalidTitle')}>
        <Text mb="6">{t('reset.invalidBody')}</Text>
        <AppLink href={ROUTES.forgotPassword} color="blue.700">
          {t('login.forgotPassword')}
        </AppLink>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('reset.title')}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="5">
          <TextField
            label={t('reset.password')}
            type="password"
            autoComplete="new-password"
            helperText={t('password.rules')}
            binding={form.bind('password')}
            error={form.errors.password}
          />
          <TextField
            label={t('reset.confirmPassword')}
            type="password"
            autoComplete="new-password"
            binding={form.bind('confirmation')}
            error={form.errors.confirmation}
          />
          <Button
            type="submit"
            colorPalette="blue"
            disabled={!form.canSubmit || isLoading}
            loading={isLoading}
          >
            {t('reset.submit')}
          </Button>
          <AppLink href={ROUTES.login} color="blue.700" alignSelf="center">
            {t('reset.backToLogin')}
          </AppLink>
        </Stack>
      </form>
      <LazyAppModal
        open={outcome === 'done'}
        type="success"
        title={t('reset.successTitle')}
        lines={[t('reset.successBody')]}
        onClose={() => navigateTo(ROUTES.login, { replace: true })}
      />
      <LazyAppModal
        open={outcome === 'error'}
        type="error"
        lines={[t('reset.errorBody')]}
        onClose={() => setOutcome(null)}
      />
    </AuthLayout>
  );
}
