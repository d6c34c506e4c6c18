// Account (product-spec section 2): full name and username can change, the team is shown only.
// Success and failure open the dialog; a failure shows the server detail (section 8).
import { Heading, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { LazyAppModal } from '../../../components/LazyAppModal';
import { TextField } from '../../../components/TextField';
import { describeServerError } from '../../../lib/error-messages';
import { useT } from '../../../lib/locale-context';
import { useForm } from '../../../lib/use-form';
import { useUpdateProfileMutation, type Profile } from '../api';
import { accountRules, FULL_NAME_MAX_LENGTH } from '../profile-rules';
import { ReadOnlyField } from './ReadOnlyField';
import { SubmitButton } from './SubmitButton';

type Outcome = { type: 'success' } | { type: 'error'; text: string } | null;

export function AccountSection({ profile }: { profile: Profile }) {
  const t = useT();
  // Only the profile the section opened with seeds the form; later answers do not reset typing.
  const [initialValues] = useState(() => ({
    fullName: profile.fullName ?? '',
    username: profile.username ?? '',
  }));
  const form = useForm({ initialValues, rules: accountRules });
  const [updateProfile, { isLoading }] = useUpdateProfileMutation();
  const [outcome, setOutcome] = useState<Outcome>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.canSubmit || isLoading) return;
    try {
      await updateProfile({
        full_name: form.values.fullName.trim(),
        username: form.values.username.trim(),
      }).unwrap();
      setOutcome({ type: 'success' });
    } catch (error) {
      setOutcome({ type: 'error', text: describeServerError(error, t('common.unknownError')) });
    }
  };

  return (
    <>
      <Heading as="h2" size="lg" mb="4">
        {t('profile.menu.account')}
      </Heading>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="5">
          <TextField
            label={t('profile.account.fullName')}
            autoComplete="name"
            maxLength={FULL_NAME_MAX_LENGTH}
            binding={form.bind('fullName')}
            error={form.errors.fullName}
          />
          <TextField
            label={t('profile.account.username')}
            autoComplete="username"
            binding={form.bind('username')}
            error={form.errors.username}
          />
          <ReadOnlyField label={t('profile.account.team')} value={profile.team?.name ?? ''} />
          <SubmitButton canSubmit={form.canSubmit} busy={isLoading}>
            {t('profile.save')}
          </SubmitButton>
        </Stack>
      </form>
      <LazyAppModal
        open={outcome !== null}
        type={outcome?.type ?? 'success'}
        lines={
          outcome?.type === 'error' ? [outcome.text] : outcome ? [t('profile.account.success')] : []
        }
        onClose={() => setOutcome(null)}
      />
    </>
  );
}
