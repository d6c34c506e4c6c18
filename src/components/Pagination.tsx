// "a - b of total" with previous and next page buttons (product-spec section 2).
import { Button, Flex, Text } from '@chakra-ui/react';
import { useT } from '../lib/locale-context';

/** The first and last position shown on a page; 0 - 0 when there is nothing. */
export function pageRange(page: number, size: number, shown: number, total: number) {
  if (total <= 0 || shown <= 0) return { from: 0, to: 0 };
  const from = (page - 1) * size + 1;
  return { from, to: Math.min(total, from + shown - 1) };
}

interface PaginationProps {
  page: number;
  size: number;
  shown: number;
  total: number;
  pages: number;
  onPage: (page: number) => void;
  /** Tells the two copies (above and below a list) apart for assistive technology. */
  label: string;
}

export function Pagination({ page, size, shown, total, pages, onPage, label }: PaginationProps) {
  const t = useT();
  const { from, to } = pageRange(page, size, shown, total);
  return (
    <Flex as="nav" aria-label={label} align="center" justify="flex-end" gap="2" my="3">
      <Text color="gray.700" fontSize="sm" data-testid="page-range">
        {t('pagination.range', { from, to, total })}
      </Text>
      <Button size="xs" variant="outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('pagination.previous')}
      </Button>
      <Button size="xs" variant="outline" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('pagination.next')}
      </Button>
    </Flex>
  );
}
