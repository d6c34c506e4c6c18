// Query-string schemas of the video routes. Unknown parameters are ignored (the client may send
// extra ones such as the "video" flag); wrong types and ranges are 422.
import {
  SEARCH_METHODS,
  SEARCH_SCOPES,
  SEARCH_TEXT_MAX_LENGTH,
  TOP_K_MAX,
  TOP_K_MIN,
} from '../../../../src/config/limits.ts';

// Bounds keep OFFSET arithmetic far from overflow; size above the cap is clamped, not refused.
const page = { type: 'integer', minimum: 1, maximum: 1_000_000 } as const;
const size = { type: 'integer', minimum: 1, maximum: 1_000_000 } as const;

export const listVideosQuery = {
  type: 'object',
  properties: {
    page,
    size,
    sort: { type: 'string', enum: ['priority', 'newest', 'oldest'] },
  },
} as const;

export interface ListVideosQuery {
  page?: number;
  size?: number;
  sort?: 'priority' | 'newest' | 'oldest';
  [param: string]: unknown;
}

export const similarQuery = {
  type: 'object',
  properties: {
    videoId: { type: 'string', maxLength: 100 },
    sceneIndex: { type: 'integer', minimum: 0, maximum: 1_000_000 },
    searchScope: { type: 'string', enum: [...SEARCH_SCOPES] },
    kValue: { type: 'integer', minimum: TOP_K_MIN, maximum: TOP_K_MAX },
    description: { type: 'string', maxLength: SEARCH_TEXT_MAX_LENGTH },
    searchMethod: { type: 'string', enum: [...SEARCH_METHODS] },
    page,
    size,
  },
} as const;

export interface SimilarQuery {
  videoId?: string;
  sceneIndex?: number;
  searchScope?: (typeof SEARCH_SCOPES)[number];
  kValue?: number;
  description?: string;
  searchMethod?: (typeof SEARCH_METHODS)[number];
  page?: number;
  size?: number;
}

export const idParams = {
  type: 'object',
  properties: { id: { type: 'string', maxLength: 100 } },
  required: ['id'],
} as const;
