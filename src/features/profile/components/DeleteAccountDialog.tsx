// The confirm popup of the account deletion: Delete is enabled only when the typed e-mail equals
// the profile's exactly (product-spec section 4) and the current password is given (the server
// checks it, so a stolen session alone cannot delete the account). Afterwards: logout, which
// clears every cache, and Login.
import { Box, Button, Dialog, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { ModalFrame } from '../../../components/ModalFrame';
import { NeedsNetwork } from '../../../components/NeedsNetwork';
import { TextField } from '../../../components/TextField';
import { describeServerError } from '../../../lib/error-messages';
import { useT } from '../../../lib/locale-context';
import { logout } from '../../../lib/session';
import { useAppDispatch } from '../../../lib/store-hooks';
import { useForm } from '../../../lib/use-form';
import { emailRules, passwordRules } from '../../../lib/validation';
import { useDeleteAccountMutation, type Profile } from '../api';
import { InlineError } from './InlineError';

const RULES = { email: emailRules, currentPassword: passwordRules };
const INITIAL = { email: '', currentPassword: '' };

interface DeleteAccountDialogProps {
  profile: Profile;
  onClose: () => void;
}

export function DeleteAccountDialog({ profile, onClose }: DeleteAccountDialogProps) {
  const t = useT();
  const dispatch = useAppDispatch();
  const form = useForm({ initialValues: INITIAL, rules: RULES });
  const [deleteAccount, { isLoading }] = useDeleteAccountMutation();
  const [error, setError] = useState<string | null>(null);
  const confirmed = form.values.email === profile.email && form.canSubmit;

  const remove = async () => {
    if (!confirmed || isLoading) return;
    setError(null);
    try {
      await deleteAccount({
        id: profile.id,
        current_password: form.values.currentPassword,
      }).unwrap();
      // The server has ended every session of the account already.
      await dispatch(logout({ callServer: false }));
    } catch (failure) {
      setError(describeServerError(failure, t('common.unknownError')));
    }
  };

  return (
    <ModalFrame
      open
      onClose={() => {
        if (!isLoading) onClose();
      }}
      role="alertdialog"
      modalType="warning"
    >
      <Box h="1" bg="red.600" borderTopRadius="l3" />
      <Dialog.Header>
        <Dialog.Title>{t('profile.delete.title')}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="4">
          <Text>{t('profile.delete.description')}</Text>
          <Text fontWeight="medium" wordBreak="break-all">
            {t('profile.delete.confirmHint', { email: profile.email })}
          </Text>
          <TextField
            label={t('profile.delete.confirmLabel')}
            type="email"
            autoComplete="off"
            binding={form.bind('email')}
            error={form.errors.email}
          />
          <TextField
            label={t('password.current')}
            type="password"
            autoComplete="current-password"
            helperText={t('profile.delete.passwordHint')}
            binding={form.bind('currentPassword')}
            error={form.errors.currentPassword}
          />
          <InlineError text={error} />
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Button variant="outline" onClick={onClose} disabled={isLoading}>
          {t('common.cancel')}
        </Button>
        <NeedsNetwork>
          <Button
            colorPalette="red"
            disabled={!confirmed || isLoading}
            loading={isLoading}
            onClick={() => void remove()}
          >
            {t('common.delete')}
          </Button>
        </NeedsNetwork>
      </Dialog.Footer>
    </ModalFrame>
  );
}
