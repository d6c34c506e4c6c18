// Change e-mail (product-spec sections 2 and 4): step 1 asks for a code for the new address,
// step 2 checks it. Errors show inline; success opens the dialog, whose confirm clears the
// pending e-mail and goes to VideoList. The sidebar shows the new address at once.
import { Box, Flex, Heading } from '@chakra-ui/react';
import { useState } from 'react';
import { LazyAppModal } from '../../../components/LazyAppModal';
import { OTP_LENGTH } from '../../../config/limits';
import { ROUTES } from '../../../config/routes';
import { describeServerError } from '../../../lib/error-messages';
import { useLocale, useT } from '../../../lib/locale-context';
import { navigateTo } from '../../../lib/navigation';
import { persistSession } from '../../../lib/session';
import { selectCurrentUser, setPendingEmail, signedIn } from '../../../lib/session-slice';
import { useAppDispatch, useAppSelector } from '../../../lib/store-hooks';
import { useForm } from '../../../lib/use-form';
import { emailRules, passwordRules } from '../../../lib/validation';
import { useRequestEmailChangeMutation, useVerifyEmailChangeMutation } from '../api';
import { useCountdown } from '../hooks/use-countdown';
import { RATE_LIMITED_COOLDOWN_SECONDS, RESEND_COOLDOWN_SECONDS } from '../profile-rules';
import { EmailCodeStep } from './EmailCodeStep';
import { EmailRequestStep } from './EmailRequestStep';
import { EmailSteps, type EmailStep } from './EmailSteps';
import { emptyOtp, type OtpDigits } from './OtpInput';

const RULES = { newEmail: emailRules, currentPassword: passwordRules };
const INITIAL = { newEmail: '', currentPassword: '' };

function statusOf(error: unknown): number | undefined {
  return error !== null && typeof error === 'object'
    ? (error as { status?: number }).status
    : undefined;
}

export function ChangeEmailSection() {
  const t = useT();
  const { locale } = useLocale();
  const dispatch = useAppDispatch();
  const sessionUser = useAppSelector(selectCurrentUser);
  const pendingEmail = useAppSelector((state) => state.session.pendingEmail);
  const form = useForm({ initialValues: INITIAL, rules: RULES });
  const [step, setStep] = useState<EmailStep>(1);
  const [reached, setReached] = useState<EmailStep>(1);
  const [digits, setDigits] = useState<OtpDigits>(() => emptyOtp(OTP_LENGTH));
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [cooldown, startCooldown] = useCountdown();
  const [requestCode, request] = useRequestEmailChangeMutation();
  const [verifyCode, verify] = useVerifyEmailChangeMutation();

  const fail = (failure: unknown) => {
    if (statusOf(failure) === 429) startCooldown(RATE_LIMITED_COOLDOWN_SECONDS);
    setError(describeServerError(failure, t('common.unknownError')));
  };

  /** Step 1's submit and step 2's resend: both ask for a fresh code for the typed address. */
  const sendCode = async (resend: boolean) => {
    setError(null);
    setNotice(null);
    const newEmail = form.values.newEmail.trim();
    try {
      await requestCode({
        current_password: form.values.currentPassword,
        new_email: newEmail,
        language: locale,
      }).unwrap();
      dispatch(setPendingEmail(newEmail));
      startCooldown(RESEND_COOLDOWN_SECONDS);
      setDigits(emptyOtp(OTP_LENGTH));
      setStep(2);
      setReached(2);
      if (resend) setNotice(t('profile.email.resent'));
    } catch (failure) {
      fail(failure);
    }
  };

  const checkCode = async () => {
    if (!pendingEmail) return;
    setError(null);
    setNotice(null);
    try {
      const profile = await verifyCode({
        otp: digits.join(''),
        new_email: pendingEmail,
        language: locale,
      }).unwrap();
      // The stored session carries the e-mail too (the sidebar falls back to it).
      if (sessionUser) {
        dispatch(signedIn({ ...sessionUser, user: { ...sessionUser.user, email: profile.email } }));
        await dispatch(persistSession());
      }
      setDone(true);
    } catch (failure) {
      fail(failure);
    }
  };

  const finish = () => {
    dispatch(setPendingEmail(null));
    navigateTo(ROUTES.videoList);
  };

  const select = (next: EmailStep) => {
    setError(null);
    setNotice(null);
    setStep(next);
  };

  return (
    <>
      <Heading as="h2" size="lg" mb="4">
        {t('profile.menu.changeEmail')}
      </Heading>
      <Flex direction={{ base: 'column', sm: 'row' }} gap="6">
        <Box minW="12rem">
          <EmailSteps current={step} reached={reached} onSelect={select} />
        </Box>
        <Box flex="1">
          {step === 1 || !pendingEmail ? (
            <EmailRequestStep
              form={form}
              sending={request.isLoading}
              error={error}
              onSubmit={() => void sendCode(false)}
            />
          ) : (
            <EmailCodeStep
              email={pendingEmail}
              digits={digits}
              onDigits={setDigits}
              verifying={verify.isLoading}
              resending={request.isLoading}
              cooldown={cooldown}
              error={error}
              notice={notice}
              onVerify={() => void checkCode()}
              onResend={() => void sendCode(true)}
              onBack={() => select(1)}
            />
          )}
        </Box>
      </Flex>
      <LazyAppModal
        open={done}
        type="success"
        lines={[t('profile.email.success')]}
        onClose={finish}
      />
    </>
  );
}
