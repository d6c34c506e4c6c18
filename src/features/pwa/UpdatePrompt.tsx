// "A new version is available" with Reload. Reload never cuts an upload: it waits for the queue
// to go idle first (apply-update.ts), and says so meanwhile.
import { Box, Button, Flex, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useT } from '../../lib/locale-context';
import { applyUpdate } from './apply-update';
import { usePwaState } from './use-pwa-state';

export function UpdatePrompt() {
  const t = useT();
  const { updateWaiting, updateDeferred } = usePwaState();
  const [asked, setAsked] = useState(false);
  if (!updateWaiting) return null;
  return (
    <Box
      role="status"
      data-testid="update-prompt"
      position="fixed"
      zIndex="toast"
      insetInline="4"
      bottom="calc(1rem + env(safe-area-inset-bottom))"
      mx="auto"
      maxW="md"
      bg="gray.900"
      color="white"
      borderRadius="l2"
      boxShadow="lg"
      px="4"
      py="3"
    >
      <Flex align="center" gap="3" wrap="wrap">
        <Text flex="1">
          {updateDeferred ? t('pwa.updateAfterUpload') : t('pwa.updateAvailable')}
        </Text>
        <Button
          size="sm"
          colorPalette="blue"
          disabled={asked}
          onClick={() => {
            setAsked(true);
            void applyUpdate();
          }}
        >
          {t('pwa.reload')}
        </Button>
      </Flex>
    </Box>
  );
}
