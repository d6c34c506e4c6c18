// Similar results, given the text of the video or scene a "similar to" search started from.
import { useParams, useSearch } from 'wouter';
import { SimilarResultsPage } from '../../features/search/components/SimilarResultsPage';
import { parseSearch } from '../../lib/search-query';
import { useSourceText } from './use-source-text';

export function SimilarVideoScreen() {
  const params = useParams<{ videoId?: string }>();
  const s = parseSearch(params.videoId, useSearch());
  const source = useSourceText(s.description === null ? s.videoId : null, s.sceneIndex);
  return <SimilarResultsPage sourceText={source} />;
}
