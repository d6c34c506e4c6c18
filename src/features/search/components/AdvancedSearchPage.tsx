// Advanced search (product-spec section 2): video/scene tabs, description, top-k, method, scope
// (scene search from a video), reset filters, back link, and the search button that goes to
// SimilarVideo. Opened from a video or a scene, the text is theirs and read-only.
import { Box, Button, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useParams, useSearch } from 'wouter';
import { NeedsNetwork } from '../../../components/NeedsNetwork';
import { AppLink } from '../../../components/AppLink';
import { BackArrowIcon } from '../../../components/ActionIcons';
import {
  DEFAULT_SEARCH_METHOD,
  DEFAULT_SEARCH_SCOPE,
  SEARCH_TEXT_MAX_LENGTH,
  TOP_K_DEFAULT,
  type SearchMethod,
  type SearchScope,
} from '../../../config/limits';
import { videoDetailPath, videoDetailScenePath } from '../../../config/routes';
import { useT } from '../../../lib/locale-context';
import { navigateTo } from '../../../lib/navigation';
import { coerceTopK, parseSearch, similarResultsPath } from '../../../lib/search-query';
import { SearchFields } from './SearchFields';
import { SearchTabs } from './SearchTabs';

export interface AdvancedSearchPageProps {
  /** The read-only text when opened from a video (summary) or a scene (description). */
  prefill?: string | null;
}

export function AdvancedSearchPage({ prefill }: AdvancedSearchPageProps) {
  const t = useT();
  const params = useParams<{ videoId?: string }>();
  const initial = parseSearch(params.videoId, useSearch());
  const fromItem = initial.videoId !== null;

  const [video, setVideo] = useState(initial.video);
  const [text, setText] = useState(initial.description ?? '');
  const [topK, setTopK] = useState(String(initial.kValue));
  const [method, setMethod] = useState<SearchMethod>(initial.searchMethod);
  const [scope, setScope] = useState<SearchScope>(initial.searchScope ?? DEFAULT_SEARCH_SCOPE);

  const shownText = fromItem ? (prefill ?? '') : text;
  const tooLong = shownText.length > SEARCH_TEXT_MAX_LENGTH;
  const canSearch = shownText.trim() !== '' && !tooLong;

  const reset = () => {
    setTopK(String(TOP_K_DEFAULT));
    setMethod(DEFAULT_SEARCH_METHOD);
    setScope(DEFAULT_SEARCH_SCOPE);
  };

  const search = () => {
    if (!canSearch) return;
    navigateTo(
      similarResultsPath({
        videoId: initial.videoId,
        sceneIndex: initial.sceneIndex,
        searchScope: !video && fromItem ? scope : null,
        video,
        kValue: coerceTopK(topK),
        // From a video or scene the search is "similar to it", not the text (docs/decisions/similar-search-no-description.md).
        description: fromItem ? null : text,
        searchMethod: method,
        page: null,
      }),
    );
  };

  const label = fromItem
    ? video
      ? t('search.similarVideos')
      : t('search.similarScenes')
    : video
      ? t('search.relevantVideos')
      : t('search.relevantScenes');

  const backHref =
    initial.videoId === null
      ? null
      : initial.sceneIndex === null
        ? videoDetailPath(initial.videoId)
        : videoDetailScenePath(initial.videoId, initial.sceneIndex);

  return (
    <Box maxW="48rem">
      {backHref ? (
        <AppLink href={backHref} display="inline-flex" alignItems="center" gap="1" mb="3">
          <BackArrowIcon />
          {t('search.backToVideo')}
        </AppLink>
      ) : null}
      <Heading as="h1" size="2xl" mb="4">
        {t('nav.advancedSearch')}
      </Heading>
      <SearchTabs video={video} onChange={setVideo} />
      <Stack
        as="form"
        gap="4"
        mt="4"
        onSubmit={(event) => {
          event.preventDefault();
          search();
        }}
      >
        <SearchFields
          text={shownText}
          readOnly={fromItem}
          onText={setText}
          topK={topK}
          onTopK={setTopK}
          method={method}
          onMethod={setMethod}
          scope={!video && fromItem ? scope : null}
          onScope={setScope}
        />
        <Flex justify="space-between" align="center" gap="3" wrap="wrap">
          <Button variant="plain" px="0" color="blue.700" type="button" onClick={reset}>
            {t('search.resetFilters')}
          </Button>
          <NeedsNetwork>
            <Button type="submit" colorPalette="blue" disabled={!canSearch}>
              {label}
            </Button>
          </NeedsNetwork>
        </Flex>
        {fromItem ? (
          <Text fontSize="sm" color="gray.700">
            {initial.sceneIndex === null ? t('search.fromVideoHint') : t('search.fromSceneHint')}
          </Text>
        ) : null}
      </Stack>
    </Box>
  );
}
