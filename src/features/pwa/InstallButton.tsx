// Shown where the browser offers installation (beforeinstallprompt); gone once installed.
import { Button } from '@chakra-ui/react';
import { useT } from '../../lib/locale-context';
import { promptInstall } from './pwa-state';
import { usePwaState } from './use-pwa-state';

export function InstallButton() {
  const t = useT();
  const { canInstall } = usePwaState();
  if (!canInstall) return null;
  return (
    <Button
      size="sm"
      variant="outline"
      color="white"
      borderColor="whiteAlpha.600"
      _hover={{ bg: 'whiteAlpha.200' }}
      onClick={() => void promptInstall()}
    >
      {t('pwa.install')}
    </Button>
  );
}
