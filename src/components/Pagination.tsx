// "a - b of total" with previous and next page buttons (product-spec section 2).
import { useT } from '../lib/locale-context';
import { PlainButton } from './PlainButton';
import styles from './Pagination.module.css';

/**
 * The first and last position shown on a page; 0 - 0 when there is nothing. `skipped` positions
 * before this page are not shown by the list (the range starts that much earlier).
 */
export function pageRange(page: number, size: number, shown: number, total: number, skipped = 0) {
  if (total <= 0 || shown <= 0) return { from: 0, to: 0 };
  const from = Math.max(1, (page - 1) * size + 1 - skipped);
  return { from, to: Math.min(total, from + shown - 1) };
}

interface PaginationProps {
  page: number;
  size: number;
  shown: number;
  total: number;
  /** Positions before this page that the list does not show (see pageRange). */
  skipped?: number;
  pages: number;
  onPage: (page: number) => void;
  /** Tells the two copies (above and below a list) apart for assistive technology. */
  label: string;
}

export function Pagination(props: PaginationProps) {
  const { page, size, shown, total, skipped, pages, onPage, label } = props;
  const t = useT();
  const { from, to } = pageRange(page, size, shown, total, skipped);
  return (
    <nav aria-label={label} className={styles.pagination}>
      <p className={styles.range} data-testid="page-range">
        {t('pagination.range', { from, to, total })}
      </p>
      <PlainButton
        size="xs"
        variant="neutral"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        {t('pagination.previous')}
      </PlainButton>
      <PlainButton
        size="xs"
        variant="neutral"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        {t('pagination.next')}
      </PlainButton>
    </nav>
  );
}
