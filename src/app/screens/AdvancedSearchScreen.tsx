// Advanced search, given the read-only text of the video or scene it was opened from.
import { useParams, useSearch } from 'wouter';
import { AdvancedSearchPage } from '../../features/search/components/AdvancedSearchPage';
import { parseSearch } from '../../lib/search-query';
import { useSourceText } from './use-source-text';

export function AdvancedSearchScreen() {
  const params = useParams<{ videoId?: string }>();
  const s = parseSearch(params.videoId, useSearch());
  return <AdvancedSearchPage prefill={useSourceText(s.videoId, s.sceneIndex)} />;
}
