// Video and scene result cards (product-spec section 2). Memoised for long result pages.
import { Box, Flex, Stack, Text } from '@chakra-ui/react';
import { memo } from 'react';
import { AppLink } from '../../../components/AppLink';
import { ExpandableBox } from '../../../components/ExpandableBox';
import { Thumbnail } from '../../../components/Thumbnail';
import { videoDetailPath, videoDetailScenePath } from '../../../config/routes';
import { assetUrl } from '../../../lib/asset-url';
import { formatDateTime } from '../../../lib/dates';
import { useT } from '../../../lib/locale-context';
import type { SimilarItem } from '../api';
import { formatScore, splitSceneText } from '../scene-text';

function Score({ value }: { value: number }) {
  const t = useT();
  return (
    <Text fontSize="sm" color="gray.700" data-testid="similarity-score">
      {t('results.score', { score: formatScore(value) })}
    </Text>
  );
}

export const VideoResultCard = memo(function VideoResultCard({ item }: { item: SimilarItem }) {
  const t = useT();
  const title = item.title || t('results.untitled');
  return (
    <Flex as="li" gap="4" p="3" borderWidth="1px" borderRadius="l2" data-testid="result-card">
      <Thumbnail
        src={assetUrl(item.videoThumbnailPath)}
        alt={t('videos.thumbnailOf', { title })}
        width={160}
        height={90}
      />
      <Stack flex="1" minW="0" gap="1">
        <AppLink href={videoDetailPath(item.id)} fontWeight="semibold" color="blue.800">
          {title}
        </AppLink>
        {item.summary ? (
          <ExpandableBox>
            <Text fontSize="sm" whiteSpace="pre-line">
              {item.summary}
            </Text>
          </ExpandableBox>
        ) : null}
        <Flex gap="4" wrap="wrap">
          <Score value={item.similarityScore} />
          <Text fontSize="sm" color="gray.700">
            {t('videos.createdAt', { date: formatDateTime(item.createdAt) })}
          </Text>
        </Flex>
      </Stack>
    </Flex>
  );
});

export const SceneResultCard = memo(function SceneResultCard({ item }: { item: SimilarItem }) {
  const t = useT();
  const { title, body } = splitSceneText(item.sceneDescription ?? '');
  const index = item.sceneIndex ?? 0;
  return (
    <Flex as="li" gap="4" p="3" borderWidth="1px" borderRadius="l2" data-testid="result-card">
      <Thumbnail
        src={assetUrl(item.sceneThumbnailPath ?? item.videoThumbnailPath)}
        alt={t('detail.sceneNumber', { n: index })}
        width={160}
        height={90}
      />
      <Stack flex="1" minW="0" gap="1">
        <Text fontWeight="semibold" data-testid="scene-title">
          {title}
        </Text>
        {body ? (
          <Text fontSize="sm" data-testid="scene-body">
            {body}
          </Text>
        ) : null}
        {item.matchedPeople?.map((name) => (
          <Text key={name} fontSize="sm" fontWeight="semibold" color="green.800">
            {t('search.personMatched', { name })}
          </Text>
        ))}
        <Box>
          <AppLink href={videoDetailScenePath(item.id, index)} color="blue.800" fontSize="sm">
            {t('results.sceneFrom', { n: index, title: item.title || t('results.untitled') })}
          </AppLink>
        </Box>
        <Score value={item.similarityScore} />
      </Stack>
    </Flex>
  );
});
