// A centred title and description for a list with nothing to show (product-spec section 8).
import styles from './feedback.module.css';

export function EmptyState({ title, description }: { title: string; description: string }) {
  return (
    <div className={styles.empty} data-testid="empty-state">
      <p className={styles.emptyTitle}>{title}</p>
      <p className={styles.emptyText}>{description}</p>
    </div>
  );
}
