// SceneFrames (product-spec section 2): every frame of one scene; back returns to the detail
// with the scene selected. The video comes from the cache the detail page filled.
import { Box, Flex, Grid, Heading, IconButton, Text } from '@chakra-ui/react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useEffect } from 'react';
import { useParams } from 'wouter';
import { BackArrowIcon } from '../../../components/ActionIcons';
import { Thumbnail } from '../../../components/Thumbnail';
import { ROUTES, videoDetailScenePath } from '../../../config/routes';
import { assetUrl } from '../../../lib/asset-url';
import { useT } from '../../../lib/locale-context';
import { navigateTo } from '../../../lib/navigation';
import { useGetVideoQuery } from '../api';
import { shortTime } from '../frames';

export function SceneFramesPage() {
  const t = useT();
  const { id, sceneIndex } = useParams<{ id: string; sceneIndex: string }>();
  const index = Number.parseInt(sceneIndex ?? '', 10);
  const { data: video, isError } = useGetVideoQuery(id ?? skipToken);
  const scene = video?.outputData?.scenes.find((s) => s.index === index);

  useEffect(() => {
    if (isError || !id) navigateTo(ROUTES.videoList, { replace: true });
    else if (video && !scene) navigateTo(videoDetailScenePath(id, 0), { replace: true });
  }, [isError, id, video, scene]);

  if (!video || !scene || !id) return null;
  return (
    <Box>
      <Flex align="center" gap="3" mb="6">
        <IconButton
          aria-label={t('detail.back')}
          variant="ghost"
          onClick={() => navigateTo(videoDetailScenePath(id, scene.index))}
        >
          <BackArrowIcon />
        </IconButton>
        <Box>
          <Heading as="h1" size="2xl">
            {t('frames.title', { n: scene.index })}
          </Heading>
          <Text color="gray.700">
            {video.title || video.filename} · {shortTime(scene.startTime)} -{' '}
            {shortTime(scene.endTime)}
          </Text>
        </Box>
      </Flex>
      <Grid
        as="ul"
        listStyleType="none"
        templateColumns="repeat(auto-fill, minmax(200px, 1fr))"
        gap="3"
        aria-label={t('detail.frames')}
      >
        {scene.frames.map((frame, i) => (
          <li key={frame.path} data-testid="frame">
            <Thumbnail
              src={assetUrl(frame.path)}
              alt={t('detail.frameNumber', { n: i + 1 })}
              width={240}
              height={135}
            />
          </li>
        ))}
      </Grid>
    </Box>
  );
}
