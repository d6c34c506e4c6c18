// Login (product-spec section 2): validated e-mail and password, two-line error dialog.
import { useState, type FormEvent } from 'react';
import { LazyAppModal } from '../../../components/LazyAppModal';
import { PlainButton } from '../../../components/PlainButton';
import { RouteLink } from '../../../components/RouteLink';
import { TextField } from '../../../components/TextField';
import { profilePath, ROUTES } from '../../../config/routes';
import { useT } from '../../../lib/locale-context';
import { navigateTo } from '../../../lib/navigation';
import { takeReturnTo } from '../../../lib/return-to';
import { startSession } from '../../../lib/session';
import { useAppDispatch } from '../../../lib/store-hooks';
import { useForm } from '../../../lib/use-form';
import { emailRules, passwordRules } from '../../../lib/validation';
import { useLogin } from '../api';
import { AuthLayout, authStyles as styles } from './AuthLayout';

const RULES = { email: emailRules, password: passwordRules };
const INITIAL = { email: '', password: '' };

export function LoginPage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const form = useForm({ initialValues: INITIAL, rules: RULES });
  const [login, { isLoading }] = useLogin();
  const [failed, setFailed] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.canSubmit || isLoading) return;
    try {
      const answer = await login({
        email: form.values.email,
        password: form.values.password,
      });
      const session = await dispatch(startSession(answer));
      const target = session.user.mustChangePassword
        ? profilePath('CHANGE_PASSWORD')
        : (takeReturnTo() ?? ROUTES.videoList);
      navigateTo(target, { replace: true });
    } catch {
      setFailed(true);
    }
  };

  return (
    <AuthLayout title={t('login.title')}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <div className={styles.form}>
          <TextField
            label={t('login.email')}
            type="email"
            autoComplete="username"
            binding={form.bind('email')}
            error={form.errors.email}
          />
          <TextField
            label={t('login.password')}
            type="password"
            autoComplete="current-password"
            binding={form.bind('password')}
            error={form.errors.password}
          />
          <RouteLink href={ROUTES.forgotPassword} className={`${styles.link} ${styles.end}`}>
            {t('login.forgotPassword')}
          </RouteLink>
          <PlainButton type="submit" disabled={!form.canSubmit || isLoading} loading={isLoading}>
            {t('login.submit')}
          </PlainButton>
        </div>
      </form>
      <LazyAppModal
        open={failed}
        type="error"
        title={t('login.errorTitle')}
        lines={[t('login.errorLine1'), t('login.errorLine2')]}
        onClose={() => setFailed(false)}
      />
    </AuthLayout>
  );
}
