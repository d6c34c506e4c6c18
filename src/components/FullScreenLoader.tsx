// Covers the screen while requests run, so nothing is clicked twice mid-request.
import { Box, Spinner } from '@chakra-ui/react';
import { useT } from '../lib/locale-context';

export function FullScreenLoader() {
  const t = useT();
  return (
    <Box
      role="status"
      aria-label={t('common.loading')}
      position="fixed"
      inset="0"
      zIndex="overlay"
      bg="blackAlpha.300"
      display="flex"
      alignItems="center"
      justifyContent="center"
    >
      <Spinner size="xl" color="blue.600" borderWidth="4px" />
    </Box>
  );
}
