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
import { toSeconds } from '../../../lib/timecode';
import { SceneChips } from './SceneChips';

interface SelectedSceneProps {
  videoId: string;
  scene: Scene;
  /**
   * Play the clip as soon as it shows, from this time of the video (seconds): a search hit's link
   * gives the scene's start, a deep link any moment of the scene. Null: wait for the user.
   */
  playFrom?: number | null;
}

/** HTMLMediaElement.HAVE_METADATA: the element can seek. */
const HAVE_METADATA = 1;

export function SelectedScene({ videoId, scene, playFrom = null }: SelectedSceneProps) {
  const t = useT();
  const frames = sampleEvenly(scene.frames);
  const clip = assetUrl(scene.videoPath);
  const player = useRef<HTMLVideoElement>(null);
  const offset = playFrom === null ? null : Math.max(0, playFrom - toSeconds(scene.startTime));
  useEffect(() => {
    const video = player.current;
    if (offset === null || !clip || !video) return;
    const seek = () => {
      if (offset > 0) video.currentTime = offset;
    };
    if (video.readyState >= HAVE_METADATA) seek();
    else video.addEventListener('loadedmetadata', seek, { once: true });
    // A browser that refuses to play without a gesture leaves the poster and the controls.
    void video.play()?.catch(() => undefined);
    return () => video.removeEventListener('loadedmetadata', seek);
  }, [offset, clip]);
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
