// The selected scene: number, time range, description, Search Similar Scenes, its clip and a
// preview of at most six evenly sampled frames with View All (product-spec section 2); issue 29
// adds the clip's poster (the scene thumbnail), who and what is in it, and playing it at once
// when a search hit opened it.
import { Box, Button, Flex, Grid, Heading, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';
import { AppLink } from '../../../components/AppLink';
import { NeedsNetwork } from '../../../components/NeedsNetwork';
import { Thumbnail } from '../../../components/Thumbnail';
import { FRAME_PREVIEW_COUNT } from '../../../config/limits';
import { sceneFramesPath } from '../../../config/routes';
import { assetUrl } from '../../../lib/asset-url';
import { useT } from '../../../lib/locale-context';
import { navigateTo } from '../../../lib/navigation';
import { advancedSearchPath } from '../../../lib/search-query';
import type { Scene } from '../api';
import { sampleEvenly, shortTime } from '../frames';
import { SceneChips } from './SceneChips';

interface SelectedSceneProps {
  videoId: string;
  scene: Scene;
  /** Play the clip from its start as soon as it shows (a search hit's link). */
  autoPlay?: boolean;
}

export function SelectedScene({ videoId, scene, autoPlay = false }: SelectedSceneProps) {
  const t = useT();
  const frames = sampleEvenly(scene.frames);
  const clip = assetUrl(scene.videoPath);
  const player = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    // A browser that refuses to play without a gesture leaves the poster and the controls.
    if (autoPlay && clip) void player.current?.play()?.catch(() => undefined);
  }, [autoPlay, clip]);
  return (
    <Box
      as="section"
      id={`scene-${scene.index}`}
      aria-labelledby="selected-scene-title"
      borderWidth="1px"
      borderRadius="l3"
      p="4"
      scrollMarginTop="4"
    >
      <Flex justify="space-between" align="start" gap="3" wrap="wrap">
        <Stack gap="1">
          <Heading as="h3" size="md" id="selected-scene-title">
            {t('detail.sceneNumber', { n: scene.index })}
          </Heading>
          <Text color="gray.700" fontSize="sm">
            {shortTime(scene.startTime)} - {shortTime(scene.endTime)}
          </Text>
        </Stack>
        <NeedsNetwork>
          <Button
            size="sm"
            colorPalette="blue"
            onClick={() =>
              navigateTo(advancedSearchPath({ videoId, sceneIndex: scene.index, video: false }))
            }
          >
            {t('detail.searchSimilarScenes')}
          </Button>
        </NeedsNetwork>
      </Flex>
      <Text mt="3" whiteSpace="pre-line" data-testid="scene-description">
        {scene.description}
      </Text>
      <SceneChips scene={scene} />
      {clip ? (
        <video
          key={clip}
          ref={player}
          src={clip}
          poster={assetUrl(scene.thumbnail) ?? undefined}
          controls
          preload="metadata"
          aria-label={t('detail.sceneClip', { n: scene.index })}
          data-testid="scene-clip"
          style={{ width: '100%', maxWidth: 640, marginTop: 12, background: 'black' }}
        />
      ) : null}
      {frames.length > 0 ? (
        <Box mt="4">
          <Flex justify="space-between" align="center" mb="2">
            <Heading as="h4" size="sm">
              {t('detail.frames')}
            </Heading>
            {scene.frames.length > FRAME_PREVIEW_COUNT ? (
              <AppLink href={sceneFramesPath(videoId, scene.index)} color="blue.700">
                {t('detail.viewAllFrames')}
              </AppLink>
            ) : null}
          </Flex>
          <Grid
            as="ul"
            listStyleType="none"
            templateColumns="repeat(auto-fill, minmax(140px, 1fr))"
            gap="2"
            aria-label={t('detail.frames')}
          >
            {frames.map((frame, i) => (
              <li key={frame.path} data-testid="frame">
                <Thumbnail
                  src={assetUrl(frame.path)}
                  alt={t('detail.frameNumber', { n: i + 1 })}
                  width={160}
                  height={90}
                />
              </li>
            ))}
          </Grid>
        </Box>
      ) : null}
    </Box>
  );
}
