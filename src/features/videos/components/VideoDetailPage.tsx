// Video detail (product-spec section 2): header, facts, full-video player, summary and tags,
// trailer/report area, the scene strip and the selected scene. A failed load returns to the
// list; ?sceneIndex selects a scene and the view scrolls to it 200 ms after load. Issue 29: a
// deep link's ?t (with or without ?sceneIndex) opens the full player at that time; ?play=1 with
// ?sceneIndex (a search hit) plays the scene's clip from its start. The player, its chapters and
// the transcript load lazily.
import { Box, Button, Flex, Heading, IconButton, Stack, Text } from '@chakra-ui/react';
import { skipToken } from '@reduxjs/toolkit/query';
import { lazy, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { useParams, useSearch } from 'wouter';
import { BackArrowIcon, PlayIcon } from '../../../components/ActionIcons';
import { NeedsNetwork } from '../../../components/NeedsNetwork';
import { Thumbnail } from '../../../components/Thumbnail';
import { SCENE_SCROLL_DELAY_MS, VIDEO_DETAIL_POLL_BACKOFF } from '../../../config/limits';
import { ROUTES, videoDetailScenePath } from '../../../config/routes';
import { assetUrl } from '../../../lib/asset-url';
import { formatDate, formatDateTime, formatLength } from '../../../lib/dates';
import { useT } from '../../../lib/locale-context';
import { navigateTo } from '../../../lib/navigation';
import { useBackoffPolling } from '../../../lib/use-backoff-polling';
import { advancedSearchPath, similarResultsPath, DEFAULT_SEARCH } from '../../../lib/search-query';
import { useGetVideoQuery, type VideoDetail } from '../api';
import { readSeconds } from '../../../lib/timecode';
import { DownloadsMenu } from './DownloadsMenu';
import { OutputsStatus } from './OutputsStatus';
import { PeopleList } from './PeopleList';
import { SceneStrip } from './SceneStrip';
import { SelectedScene } from './SelectedScene';
import { trailerPoster, VideoPlayerModal } from './VideoPlayerModal';

const FullVideoModal = lazy(async () => ({
  default: (await import('./FullVideoModal')).FullVideoModal,
}));
const TranscriptPanel = lazy(async () => ({
  default: (await import('./TranscriptPanel')).TranscriptPanel,
}));

type Player = { kind: 'full'; at: number } | { kind: 'trailer'; src: string } | null;

export interface VideoDetailPageProps {
  /** The trailer and report actions (composed in src/app); the states are shown without it. */
  outputsArea?: (video: VideoDetail) => ReactNode;
}

function scrollToScene(index: number): void {
  document.getElementById(`scene-strip-${index}`)?.scrollIntoView?.({ inline: 'center' });
  document.getElementById(`scene-${index}`)?.scrollIntoView?.({ block: 'start' });
}

function readSceneIndex(search: string): number | null {
  const raw = new URLSearchParams(search).get('sceneIndex');
  return raw !== null && /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}

export function VideoDetailPage({ outputsArea }: VideoDetailPageProps) {
  const t = useT();
  const { id } = useParams<{ id: string }>();
  const search = useSearch();
  const requested = readSceneIndex(search);
  const params = new URLSearchParams(search);
  const startAt = readSeconds(params.get('t'));
  const playScene = params.get('play') === '1' && startAt === null;
  const [busy, setBusy] = useState(false);
  const [answeredAt, setAnsweredAt] = useState<number | undefined>(undefined);
  const pollingInterval = useBackoffPolling(busy, answeredAt, VIDEO_DETAIL_POLL_BACKOFF);
  const {
    data: video,
    isError,
    fulfilledTimeStamp,
  } = useGetVideoQuery(id ?? skipToken, { pollingInterval });
  const [player, setPlayer] = useState<Player>(null);

  useEffect(() => {
    if (isError || !id) navigateTo(ROUTES.videoList, { replace: true });
  }, [isError, id]);

  // While a trailer or report is being made, poll with backoff until the flag clears.
  const creating = Boolean(video?.isTrailerCreating || video?.isReportCreating);
  useEffect(() => {
    setBusy(creating);
    setAnsweredAt(fulfilledTimeStamp);
  }, [creating, fulfilledTimeStamp]);

  const scenes = video?.outputData?.scenes ?? [];
  const selected = scenes.find((scene) => scene.index === requested) ?? scenes[0] ?? null;

  // Scroll once the page has its data (the strip and the scene are laid out by then).
  const loaded = video !== undefined;
  useEffect(() => {
    if (!loaded || requested === null) return;
    const timer = window.setTimeout(() => scrollToScene(requested), SCENE_SCROLL_DELAY_MS);
    return () => window.clearTimeout(timer);
    // Only the first load of this scene: selecting another scene does not scroll the page.
  }, [loaded, id]);

  // A deep link with a time opens the full player there, once per load.
  useEffect(() => {
    if (loaded && startAt !== null) setPlayer({ kind: 'full', at: startAt });
  }, [loaded, id]);

  const seekFull = useCallback((at: number) => setPlayer({ kind: 'full', at }), []);

  const onSelect = useCallback(
    (index: number) => {
      if (id) navigateTo(videoDetailScenePath(id, index), { replace: true });
    },
    [id],
  );

  // A person's scene: select it and bring it into view, as ?sceneIndex does on load.
  const jumpToScene = useCallback(
    (index: number) => {
      onSelect(index);
      window.setTimeout(() => scrollToScene(index), 0);
    },
    [onSelect],
  );

  if (!video || !id) return null;
  const title = video.title || video.filename;
  const fullVideo = assetUrl(video.videoPath, 'input');

  return (
    <Box>
      <Flex align="center" gap="3" mb="6" wrap="wrap">
        <IconButton
          aria-label={t('detail.back')}
          variant="ghost"
          onClick={() => navigateTo(ROUTES.videoList)}
        >
          <BackArrowIcon />
        </IconButton>
        <Heading as="h1" size="2xl" flex="1 1 14rem" minW="0" overflowWrap="anywhere">
          {title}
        </Heading>
        <DownloadsMenu downloads={video.downloads} />
        <Button variant="outline" onClick={() => navigateTo(advancedSearchPath({ videoId: id }))}>
          {t('nav.advancedSearch')}
        </Button>
      </Flex>

      <Flex gap="6" wrap="wrap" mb="6">
        <Thumbnail
          src={assetUrl(video.videoThumbnailPath)}
          alt={t('videos.thumbnailOf', { title })}
          width={320}
          height={180}
          eager
        />
        {/* The button sits after the list: a <dl> may only hold its term/value groups (axe). */}
        <Stack gap="1" minW="16rem" flex="1">
          <Stack as="dl" gap="1">
            <Fact label={t('detail.filename')} value={video.filename} />
            <Fact label={t('detail.originalDate')} value={formatDate(video.videoDate)} />
            <Fact label={t('detail.uploadedAt')} value={formatDateTime(video.createdAt)} />
            <Fact label={t('detail.length')} value={formatLength(video.videoLength)} />
          </Stack>
          {fullVideo ? (
            <Box pt="2">
              <Button
                size="sm"
                variant="outline"
                onClick={() => setPlayer({ kind: 'full', at: 0 })}
              >
                <PlayIcon />
                {t('detail.watchFullVideo')}
              </Button>
            </Box>
          ) : null}
        </Stack>
      </Flex>

      <Stack as="section" gap="2" mb="6" aria-labelledby="detail-description">
        <Heading as="h2" size="lg" id="detail-description">
          {t('detail.description')}
        </Heading>
        <Text whiteSpace="pre-line" data-testid="video-summary">
          {video.summary}
        </Text>
        {video.tags && video.tags.length > 0 ? (
          <Flex as="ul" listStyleType="none" gap="1.5" wrap="wrap" aria-label={t('videos.tags')}>
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
        ) : null}
      </Stack>

      <PeopleList
        people={video.people ?? []}
        analysed={video.status === 'completed'}
        onSelectScene={jumpToScene}
      />

      <Box mb="6">
        {outputsArea ? (
          outputsArea(video)
        ) : (
          <OutputsStatus
            video={video}
            onWatchTrailer={(src) => setPlayer({ kind: 'trailer', src })}
          />
        )}
      </Box>

      <Flex justify="space-between" align="center" mb="3" gap="3" wrap="wrap">
        <Heading as="h2" size="lg">
          {t('detail.scenes')}
        </Heading>
        <NeedsNetwork>
          <Button
            size="sm"
            colorPalette="blue"
            onClick={() => navigateTo(similarResultsPath({ ...DEFAULT_SEARCH, videoId: id }))}
          >
            {t('detail.searchSimilarVideo')}
          </Button>
        </NeedsNetwork>
      </Flex>
      {scenes.length > 0 ? (
        <Stack gap="4">
          <SceneStrip scenes={scenes} selected={selected?.index ?? null} onSelect={onSelect} />
          {selected ? (
            <SelectedScene
              videoId={id}
              scene={selected}
              autoPlay={playScene && requested === selected.index}
            />
          ) : null}
        </Stack>
      ) : (
        <Text color="gray.700">{t('detail.noScenes')}</Text>
      )}

      {video.status === 'completed' ? (
        <Box mt="6">
          <Suspense fallback={null}>
            <TranscriptPanel
              cues={video.outputData?.captions ?? []}
              note={video.captionsNote}
              currentTime={null}
              onSeek={seekFull}
            />
          </Suspense>
        </Box>
      ) : null}

      <VideoPlayerModal
        title={t('detail.trailer')}
        src={player?.kind === 'trailer' ? player.src : null}
        poster={trailerPoster(video)}
        onClose={() => setPlayer(null)}
      />
      {player?.kind === 'full' ? (
        <Suspense fallback={null}>
          <FullVideoModal video={video} startAt={player.at} onClose={() => setPlayer(null)} />
        </Suspense>
      ) : null}
    </Box>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Flex gap="2">
      <Text as="dt" fontWeight="semibold" minW="9rem">
        {label}
      </Text>
      <Text as="dd">{value}</Text>
    </Flex>
  );
}
