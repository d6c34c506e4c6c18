// Video list (product-spec section 2). For now: title, the empty state and a plain list;
// upload, search, pagination controls and status rows arrive with the videos feature.
import { Box, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { DEFAULT_PAGE, PAGE_SIZE } from '../../../config/limits';
import { formatDateTime } from '../../../lib/dates';
import { useT } from '../../../lib/locale-context';
import { useListVideosQuery } from '../api';

export function VideoListPage() {
  const t = useT();
  const { data, isError } = useListVideosQuery({ page: DEFAULT_PAGE, size: PAGE_SIZE });
  const from = data && data.total > 0 ? (data.page - 1) * data.size + 1 : 0;
  const to = data ? from + data.items.length - 1 : 0;

  return (
    <Box>
      <Flex justify="space-between" align="center" mb="6">
        <Heading as="h1" size="2xl">
          {t('videos.title')}
        </Heading>
      </Flex>
      {isError ? <Text color="red.700">{t('videos.loadError')}</Text> : null}
      {data && data.total === 0 ? (
        <Stack align="center" textAlign="center" py="16" gap="2">
          <Text fontWeight="semibold" fontSize="lg">
            {t('videos.emptyTitle')}
          </Text>
          <Text color="gray.700">{t('videos.emptyDescription')}</Text>
        </Stack>
      ) : null}
      {data && data.total > 0 ? (
        <>
          <Text color="gray.700" mb="3">
            {t('videos.range', { from, to, total: data.total })}
          </Text>
          <Stack as="ul" gap="2" listStyleType="none">
            {data.items.map((video) => (
              <Flex
                as="li"
                key={video.id}
                justify="space-between"
                p="3"
                borderWidth="1px"
                borderRadius="l2"
              >
                <Text>{video.title ?? video.filename}</Text>
                <Text color="gray.700">{formatDateTime(video.createdAt)}</Text>
              </Flex>
            ))}
          </Stack>
        </>
      ) : null}
    </Box>
  );
}
