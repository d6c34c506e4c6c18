// Asset URLs (product-spec section 7): the API hands out signed paths relative to the asset
// roots; the signature query stays untouched (docs/decisions/asset-urls.md).
import { apiUrl } from './api-url';

export type AssetRoot = 'input' | 'output';

/** The URL of a signed *Path field, or null when the field is empty. */
export function assetUrl(
  path: string | null | undefined,
  root: AssetRoot = 'output',
): string | null {
  if (!path) return null;
  return apiUrl(`/assets/data/${root}/${path.replace(/^\/+/, '')}`);
}

/**
 * The report page (product-spec section 7) opened in a new tab: it cannot send the bearer
 * token, so it carries the signature query of the video's reportPath.
 */
export function reportUrl(video: { id: string; reportPath?: string | null }): string | null {
  if (!video.reportPath) return null;
  const query = video.reportPath.split('?')[1] ?? '';
  const path = `/api/videos/${encodeURIComponent(video.id)}/report/report.html`;
  return apiUrl(query ? `${path}?${query}` : path);
}
