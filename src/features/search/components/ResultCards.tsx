// Video and scene result cards (product-spec section 2). Memoised for long result pages. Issue 29:
// the matched words are marked, the card says why it matched, and a scene hit's link plays it. On
// a phone the thumbnail sits above the text (ResultCards.module.css).
import { Box, Flex, Text } from '@chakra-ui/react';
import { memo } from 'react';
import { AppLink } from '../../../components/AppLink';
import { ExpandableBox } from '../../../components/ExpandableBox';
import { Thumbnail } from '../../../components/Thumbnail';
import { videoDetailPath, videoScenePlayPath } from '../../../config/routes';
import { assetUrl } from '../../../lib/asset-url';
import { formatDateTime } from '../../../lib/dates';
import { highlight } from '../../../lib/highlight';
import { useT } from '../../../lib/locale-context';
import type { SimilarItem } from '../api';
import { formatScore, splitSceneText } from '../scene-text';
import { MatchReasons } from './MatchReasons';
import styles from './ResultCards.module.css';

const NO_TERMS: string[] = [];

/** A scene hit opens its scene and plays its clip from the start. */
export function sceneHitPath(item: SimilarItem): string {
  return videoScenePlayPath(item.id, item.sceneIndex ?? 0);
}

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
  const terms = item.match?.terms ?? NO_TERMS;
  return (
    <li className={styles.card} data-testid="result-card">
      <Thumbnail
        src={assetUrl(item.videoThumbnailPath)}
        alt={t('videos.thumbnailOf', { title })}
        width={160}
        height={90}
        className={styles.thumb}
      />
      <div className={styles.text}>
        <AppLink href={videoDetailPath(item.id)} fontWeight="semibold" color="blue.800">
          {/* One flex item: the link is inline-flex, and its marks would each be a column. */}
          <span>{highlight(title, terms)}</span>
        </AppLink>
        {item.summary ? (
          <ExpandableBox>
            <Text fontSize="sm" whiteSpace="pre-line" data-testid="result-summary">
              {highlight(item.summary, terms)}
            </Text>
          </ExpandableBox>
        ) : null}
        <MatchReasons match={item.match} />
        <Flex gap="4" wrap="wrap">
          <Score value={item.similarityScore} />
          <Text fontSize="sm" color="gray.700">
            {t('videos.createdAt', { date: formatDateTime(item.createdAt) })}
          </Text>
        </Flex>
      </div>
    </li>
  );
});

export const SceneResultCard = memo(function SceneResultCard({ item }: { item: SimilarItem }) {
  const t = useT();
  const { title, body } = splitSceneText(item.sceneDescription ?? '');
  const index = item.sceneIndex ?? 0;
  const terms = item.match?.terms ?? NO_TERMS;
  return (
    <li className={styles.card} data-testid="result-card">
      <Thumbnail
        src={assetUrl(item.sceneThumbnailPath ?? item.videoThumbnailPath)}
        alt={t('detail.sceneNumber', { n: index })}
        width={160}
        height={90}
        className={styles.thumb}
      />
      <div className={styles.text}>
        <Text fontWeight="semibold" data-testid="scene-title">
          {highlight(title, terms)}
        </Text>
        {body ? (
          <Text fontSize="sm" data-testid="scene-body">
            {highlight(body, terms)}
          </Text>
        ) : null}
        <MatchReasons match={item.match} people={item.matchedPeople} scene />
        <Box>
          <AppLink href={sceneHitPath(item)} color="blue.800" fontSize="sm">
            {t('results.sceneFrom', { n: index, title: item.title || t('results.untitled') })}
          </AppLink>
        </Box>
        <Score value={item.similarityScore} />
      </div>
    </li>
  );
});
