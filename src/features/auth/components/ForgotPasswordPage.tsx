// Forgot password: the same neutral answer whether or not the account exists (section 8).
import { useState, type FormEvent } from 'react';
import { LazyAppModal } from '../../../components/LazyAppModal';
import { PlainButton } from '../../../components/PlainButton';
import { RouteLink } from '../../../components/RouteLink';
import { TextField } from '../../../components/TextField';
import { ROUTES } from '../../../config/routes';
import type { ApiError } from '../../../lib/base-query';
import { useT } from '../../../lib/locale-context';
import { useForm } from '../../../lib/use-form';
import { emailRules } from '../../../lib/validation';
import { useForgotPassword } from '../api';
import { AuthLayout, authStyles as styles } from './AuthLayout';

const RULES = { email: emailRules };
const INITIAL = { email: '' };

export function ForgotPasswordPage() {
  const t = useT();
  const form = useForm({ initialValues: INITIAL, rules: RULES });
  const [send, { isLoading }] = useForgotPassword();
  const [outcome, setOutcome] = useState<'sent' | 'error' | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.canSubmit || isLoading) return;
    try {
      await send({ email: form.values.email });
      setOutcome('sent');
    } catch (error) {
      setOutcome((error as ApiError).status === 401 ? 'sent' : 'error');
    }
  };

  return (
    <AuthLayout title={t('forgot.title')}>
      <p className={styles.intro}>{t('forgot.description')}</p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <div className={styles.form}>
          <TextField
            label={t('forgot.email')}
            type="email"
            autoComplete="email"
            binding={form.bind('email')}
            error={form.errors.email}
          />
          <PlainButton type="submit" disabled={!form.canSubmit || isLoading} loading={isLoading}>
            {t('forgot.submit')}
          </PlainButton>
          <RouteLink href={ROUTES.login} className={`${styles.link} ${styles.center}`}>
            {t('forgot.backToLogin')}
          </RouteLink>
        </div>
      </form>
      <LazyAppModal
        open={outcome === 'sent'}
        type="email"
        lines={[t('forgot.successBody')]}
        onClose={() => {
          setOutcome(null);
          form.reset();
        }}
      />
      <LazyAppModal
        open={outcome === 'error'}
        type="error"
        lines={[t('forgot.errorBody')]}
        onClose={() => setOutcome(null)}
      />
    </AuthLayout>
  );
}
