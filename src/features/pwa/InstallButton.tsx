// Shown where the browser offers installation (beforeinstallprompt); gone once installed.
import { PlainButton } from '../../components/PlainButton';
import { useT } from '../../lib/locale-context';
import { promptInstall } from './pwa-state';
import styles from './pwa.module.css';
import { usePwaState } from './use-pwa-state';

export function InstallButton() {
  const t = useT();
  const { canInstall } = usePwaState();
  if (!canInstall) return null;
  return (
    <PlainButton
      variant="onDark"
      size="sm"
      className={styles.install}
      onClick={() => void promptInstall()}
    >
      {t('pwa.install')}
    </PlainButton>
  );
}
