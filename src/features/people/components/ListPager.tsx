// The pages of one of the People lists, under it, shown only when there is more than one.
import { Flex } from '@chakra-ui/react';
import { Pagination } from '../../../components/Pagination';

interface ListPage {
  items: readonly unknown[];
  page: number;
  size: number;
  total: number;
  pages: number;
}

export function ListPager(props: {
  data: ListPage | undefined;
  onPage: (page: number) => void;
  label: string;
}) {
  const { data, onPage, label } = props;
  if (!data || data.pages <= 1) return null;
  return (
    <Flex mt="4">
      <Pagination
        page={data.page}
        size={data.size}
        shown={data.items.length}
        total={data.total}
        pages={data.pages}
        onPage={onPage}
        label={label}
      />
    </Flex>
  );
}
