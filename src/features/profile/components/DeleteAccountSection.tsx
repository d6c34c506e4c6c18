// Delete account (product-spec sections 2 and 4): a danger zone whose button opens the popup.
import { Box, Button, Heading, Text } from '@chakra-ui/react';
import { lazy, Suspense, useState } from 'react';
import { NeedsNetwork } from '../../../components/NeedsNetwork';
import { useT } from '../../../lib/locale-context';
import type { Profile } from '../api';

// The dialog machinery loads when the popup first opens, like the app's other modals.
const DeleteAccountDialog = lazy(async () => ({
  default: (await import('./DeleteAccountDialog')).DeleteAccountDialog,
}));

export function DeleteAccountSection({ profile }: { profile: Profile }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Heading as="h2" size="lg" mb="4">
        {t('profile.menu.deleteAccount')}
      </Heading>
      <Box
        as="section"
        aria-labelledby="danger-zone-title"
        borderWidth="1px"
        borderColor="red.300"
        borderRadius="l3"
        p="5"
      >
        <Heading as="h3" id="danger-zone-title" size="md" color="red.700" mb="2">
          {t('profile.delete.dangerZone')}
        </Heading>
        <Text color="gray.800" mb="4">
          {t('profile.delete.description')}
        </Text>
        <NeedsNetwork>
          <Button colorPalette="red" onClick={() => setOpen(true)}>
            {t('profile.menu.deleteAccount')}
          </Button>
        </NeedsNetwork>
      </Box>
      {open ? (
        <Suspense fallback={null}>
          <DeleteAccountDialog profile={profile} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
