// Every scene that shows the person, newest video first, paged; a scene opens the video detail
// with that scene's clip playing from its start (issue 29's deep link).
import { Box, Heading, Stack, Text } from '@chakra-ui/react';
import { EmptyState } from '../../../components/EmptyState';
import { RouteLink } from '../../../components/RouteLink';
import { Thumbnail } from '../../../components/Thumbnail';
import { videoSceneAtPath } from '../../../config/routes';
import { assetUrl } from '../../../lib/asset-url';
import { useT } from '../../../lib/locale-context';
import { clock, toSeconds } from '../../../lib/timecode';
import { useListPersonScenesQuery } from '../api';
import { usePageParam } from '../use-page-param';
import { ListPager } from './ListPager';

export function PersonScenes({ personId }: { personId: string }) {
  const t = useT();
  const [page, setPage] = usePageParam('scenes');
  const { data, isError } = useListPersonScenesQuery({ id: personId, page });
  return (
    <Box as="section" aria-labelledby="person-scenes">
      <Heading as="h2" size="lg" id="person-scenes" mb="3">
        {t('people.scenes')}
      </Heading>
      {isError ? <Text color="red.700">{t('people.loadError')}</Text> : null}
      {data?.total === 0 ? (
        <EmptyState
          title={t('people.emptyScenesTitle')}
          description={t('people.emptyScenesDescription')}
        />
      ) : null}
      {data && data.items.length > 0 ? (
        <Stack as="ul" listStyleType="none" gap="3">
          {data.items.map((scene) => {
            const title = scene.videoTitle ?? t('people.untitled');
            const seconds = toSeconds(scene.startTime);
            return (
              <Box as="li" key={`${scene.videoId}-${scene.sceneIndex}`} data-testid="person-scene">
                <RouteLink
                  href={videoSceneAtPath(scene.videoId, scene.sceneIndex, seconds)}
                  style={{ display: 'flex', gap: '1rem', alignItems: 'center' }}
                >
                  <Thumbnail src={assetUrl(scene.thumbnail)} alt="" width={160} height={90} />
                  <Box minW="0">
                    <Text fontWeight="semibold" color="blue.800" lineClamp={2}>
                      {title}
                    </Text>
                    <Text fontSize="sm" color="gray.700">
                      {t('people.sceneAt', { n: scene.sceneIndex, time: clock(seconds) })}
                    </Text>
                  </Box>
                </RouteLink>
              </Box>
            );
          })}
        </Stack>
      ) : null}
      <ListPager data={data} onPage={setPage} label={t('people.scenePages')} />
    </Box>
  );
}
