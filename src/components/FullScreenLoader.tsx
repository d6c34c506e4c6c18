// Covers the screen while requests run, so nothing is clicked twice mid-request.
import { useT } from '../lib/locale-context';
import styles from './feedback.module.css';

export function FullScreenLoader() {
  const t = useT();
  return (
    <div role="status" aria-label={t('common.loading')} className={styles.overlay}>
      <span className={styles.spinner} />
    </div>
  );
}
