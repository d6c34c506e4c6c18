// "A new version is available" with Reload. Reload never cuts an upload: it waits for the queue
// to go idle first (apply-update.ts), and says so meanwhile. Plain elements with a CSS module:
// part of the signed-in shell, which renders without Chakra (issue 8).
import { useState } from 'react';
import { PlainButton } from '../../components/PlainButton';
import { useT } from '../../lib/locale-context';
import { applyUpdate } from './apply-update';
import styles from './pwa.module.css';
import { usePwaState } from './use-pwa-state';

export function UpdatePrompt() {
  const t = useT();
  const { updateWaiting, updateDeferred } = usePwaState();
  const [asked, setAsked] = useState(false);
  if (!updateWaiting) return null;
  return (
    <div role="status" data-testid="update-prompt" className={styles.update}>
      <div className={styles.updateRow}>
        <p className={styles.updateText}>
          {updateDeferred ? t('pwa.updateAfterUpload') : t('pwa.updateAvailable')}
        </p>
        <PlainButton
          size="sm"
          disabled={asked}
          onClick={() => {
            setAsked(true);
            void applyUpdate();
          }}
        >
          {t('pwa.reload')}
        </PlainButton>
      </div>
    </div>
  );
}
