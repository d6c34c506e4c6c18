// Similar results (product-spec section 2): summary bar with Change, "Top {k} Picks", the filter
// line, pagination and the cards. A failed search shows the empty result (section 8).
import { Box, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useParams, useSearch } from 'wouter';
import { AppLink } from '../../../components/AppLink';
import { EmptyState } from '../../../components/EmptyState';
import { Pagination } from '../../../components/Pagination';
import { DEFAULT_SEARCH_SCOPE, PAGE_SIZE } from '../../../config/limits';
import { useT } from '../../../lib/locale-context';
import { navigateTo } from '../../../lib/navigation';
import {
  advancedSearchPath,
  apiParams,
  parseSearch,
  similarResultsPath,
} from '../../../lib/search-query';
import { useFindSimilarScenesQuery, useFindSimilarVideosQuery } from '../api';
import { SceneResultCard, VideoResultCard } from './ResultCards';
import { METHOD_LABELS, SCOPE_LABELS } from './SearchFields';

export interface SimilarResultsPageProps {
  /** The text searched for when the search is "similar to" a video or scene (no description). */
  sourceText?: string | null;
}

export function SimilarResultsPage({ sourceText }: SimilarResultsPageProps) {
  const t = useT();
  const params = useParams<{ videoId?: string }>();
  const s = parseSearch(params.videoId, useSearch());
  const valid = s.description !== null || s.videoId !== null;
  const args = valid ? apiParams(s, PAGE_SIZE) : skipToken;
  const videos = useFindSimilarVideosQuery(s.video ? args : skipToken);
  const scenes = useFindSimilarScenesQuery(s.video ? skipToken : args);
  const result = s.video ? videos : scenes;
  const data = result.isError ? undefined : result.data;
  const items = (data?.items ?? []).filter((item) => item.status === 'completed');
  const settled = !result.isFetching || result.isError || !valid;

  const scope = s.searchScope ?? DEFAULT_SEARCH_SCOPE;
  const filterLine = [
    s.video ? t('results.kindVideos') : t('results.kindScenes'),
    t(SCOPE_LABELS[s.video ? DEFAULT_SEARCH_SCOPE : scope]),
    t(METHOD_LABELS[s.searchMethod]),
  ].join(' · ');

  const pagination = (label: string) =>
    data && data.total > 0 ? (
      <Pagination
        page={data.page}
        size={data.size}
        shown={data.items.length}
        total={data.total}
        pages={data.pages}
        label={label}
        onPage={(page) => navigateTo(similarResultsPath({ ...s, page }))}
      />
    ) : null;

  return (
    <Box>
      <Flex
        align="center"
        gap="3"
        p="3"
        mb="4"
        bg="gray.50"
        borderWidth="1px"
        borderRadius="l2"
        data-testid="search-summary"
      >
        <Text flex="1" minW="0" lineClamp={2}>
          {s.description ?? sourceText ?? ''}
        </Text>
        <AppLink href={advancedSearchPath(s)} color="blue.700" fontWeight="medium">
          {t('results.change')}
        </AppLink>
      </Flex>
      <Heading as="h1" size="2xl">
        {t('results.topPicks', { k: s.kValue })}
      </Heading>
      <Text color="gray.700" mt="1" data-testid="filter-line">
        {filterLine}
      </Text>
      {pagination(t('results.paginationTop'))}
      {settled && items.length === 0 ? (
        <EmptyState
          title={s.video ? t('videos.noMatchTitle') : t('results.noMatchingScenes')}
          description={t('videos.noMatchDescription')}
        />
      ) : (
        <Stack as="ul" listStyleType="none" gap="2" mt="2" aria-label={t('results.listLabel')}>
          {items.map((item) =>
            s.video ? (
              <VideoResultCard key={item.id} item={item} />
            ) : (
              <SceneResultCard key={`${item.id}/${item.sceneIndex}`} item={item} />
            ),
          )}
        </Stack>
      )}
      {pagination(t('results.paginationBottom'))}
    </Box>
  );
}
