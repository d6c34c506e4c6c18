// One row of the video list; what it shows depends on the status (product-spec section 2).
// Memoised: a poll or a delete re-renders only the rows whose video changed.
import { Box, Button, Flex, Stack, Text } from '@chakra-ui/react';
import { memo, type MouseEvent } from 'react';
import { AppLink } from '../../../components/AppLink';
import { ExpandableBox } from '../../../components/ExpandableBox';
import { Thumbnail } from '../../../components/Thumbnail';
import { TrashIcon } from '../../../components/ActionIcons';
import { videoDetailPath } from '../../../config/routes';
import { assetUrl } from '../../../lib/asset-url';
import { formatDateTime } from '../../../lib/dates';
import { useT } from '../../../lib/locale-context';
import type { Video } from '../api';

export const THUMB_WIDTH = 160;
export const THUMB_HEIGHT = 90;

interface VideoRowProps {
  video: Video;
  onOpen: (id: string) => void;
  onDelete: (video: Video) => void;
  onRetry: (id: string) => void;
}

export const VideoRow = memo(function VideoRow({
  video,
  onOpen,
  onDelete,
  onRetry,
}: VideoRowProps) {
  const t = useT();
  const completed = video.status === 'completed';
  const failed = video.status === 'failed';
  const stop = (event: MouseEvent) => event.stopPropagation();

  const deleteButton = (
    <Button
      size="sm"
      variant="outline"
      colorPalette="red"
      onClick={(event) => {
        stop(event);
        onDelete(video);
      }}
    >
      <TrashIcon />
      {t('common.delete')}
    </Button>
  );

  if (!completed) {
    return (
      <Flex
        as="li"
        data-testid="video-row"
        data-status={failed ? 'failed' : 'in_progress'}
        align="center"
        gap="4"
        p="3"
        borderWidth="1px"
        borderRadius="l2"
        wrap="wrap"
      >
        <Box
          as="span"
          px="2"
          py="0.5"
          fontSize="xs"
          fontWeight="semibold"
          borderRadius="full"
          color="white"
          bg={failed ? 'red.700' : 'orange.700'}
        >
          {failed ? t('videos.statusFailed') : t('videos.statusInProgress')}
        </Box>
        <Text fontWeight="medium" flex="1" minW="0" truncate>
          {video.filename}
        </Text>
        <Text color="gray.700" fontSize="sm">
          {t('videos.uploadedAt', { date: formatDateTime(video.createdAt) })}
        </Text>
        {failed ? (
          <Button size="sm" variant="outline" onClick={() => onRetry(video.id)}>
            {t('videos.retry')}
          </Button>
        ) : null}
        {deleteButton}
      </Flex>
    );
  }

  const title = video.title || video.filename;
  return (
    <Flex
      as="li"
      data-testid="video-row"
      data-status="completed"
      gap="4"
      p="3"
      borderWidth="1px"
      borderRadius="l2"
      cursor="pointer"
      _hover={{ bg: 'gray.50' }}
      onClick={() => onOpen(video.id)}
    >
      <Thumbnail
        src={assetUrl(video.videoThumbnailPath)}
        alt={t('videos.thumbnailOf', { title })}
        width={THUMB_WIDTH}
        height={THUMB_HEIGHT}
      />
      <Stack flex="1" minW="0" gap="1">
        <AppLink
          href={videoDetailPath(video.id)}
          fontWeight="semibold"
          color="blue.800"
          onClick={stop}
        >
          {title}
        </AppLink>
        {video.tags && video.tags.length > 0 ? (
          <ExpandableBox>
            <Flex as="ul" gap="1.5" wrap="wrap" listStyleType="none" aria-label={t('videos.tags')}>
              {video.tags.map((tag) => (
                <Box
                  as="li"
                  key={tag.name}
                  px="2"
                  py="0.5"
                  fontSize="xs"
                  bg="gray.100"
                  borderRadius="full"
                >
                  {tag.name}
                </Box>
              ))}
            </Flex>
          </ExpandableBox>
        ) : null}
        <Text color="gray.700" fontSize="sm">
          {t('videos.createdAt', { date: formatDateTime(video.createdAt) })}
        </Text>
      </Stack>
      <Box onClick={stop}>{deleteButton}</Box>
    </Flex>
  );
});
