// Reset password with the token from the e-mailed link; 401 means the link is spent or expired.
import { useState, type FormEvent } from 'react';
import { useSearch } from 'wouter';
import { LazyAppModal } from '../../../components/LazyAppModal';
import { PlainButton } from '../../../components/PlainButton';
import { RouteLink } from '../../../components/RouteLink';
import { TextField } from '../../../components/TextField';
import { ROUTES } from '../../../config/routes';
import type { ApiError } from '../../../lib/base-query';
import { useT } from '../../../lib/locale-context';
import { navigateTo } from '../../../lib/navigation';
import { useForm } from '../../../lib/use-form';
import { matches, passwordRules, required, type Rule } from '../../../lib/validation';
import { useResetPassword } from '../api';
import { AuthLayout, authStyles as styles } from './AuthLayout';

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
        <p className={styles.note}>{t('reset.invalidBody')}</p>
        <div className={styles.links}>
          <RouteLink href={ROUTES.forgotPassword} className={styles.link}>
            {t('login.forgotPassword')}
          </RouteLink>
          <RouteLink href={ROUTES.login} className={styles.link}>
            {t('reset.backToLogin')}
          </RouteLink>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('reset.title')}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <div className={styles.form}>
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
          <PlainButton type="submit" disabled={!form.canSubmit || isLoading} loading={isLoading}>
            {t('reset.submit')}
          </PlainButton>
          <RouteLink href={ROUTES.login} className={`${styles.link} ${styles.center}`}>
            {t('reset.backToLogin')}
          </RouteLink>
        </div>
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
