// Schemas of the people routes (issue 30, docs/api.md "People"). Wrong types are 422; a size
// above the cap is clamped, as on the video list.
const page = { type: 'integer', minimum: 1, maximum: 1_000_000 } as const;
const size = { type: 'integer', minimum: 1, maximum: 1_000_000 } as const;

export const listPeopleQuery = {
  type: 'object',
  properties: { named: { type: 'boolean' }, page, size },
} as const;

export interface ListPeopleQuery {
  named?: boolean;
  page?: number;
  size?: number;
}

export const pageQuery = { type: 'object', properties: { page, size } } as const;

export interface PageQuery {
  page?: number;
  size?: number;
}

export const personParams = {
  type: 'object',
  properties: { id: { type: 'string', maxLength: 100 } },
  required: ['id'],
} as const;

export const faceParams = {
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 100 },
    faceId: { type: 'string', maxLength: 100 },
  },
  required: ['id', 'faceId'],
} as const;

/** Long enough for any name: the name's own limit is checked with a message of its own. */
export const renameBody = {
  type: 'object',
  properties: { name: { type: 'string', maxLength: 10_000 } },
  required: ['name'],
} as const;

export const mergeBody = {
  type: 'object',
  properties: { into: { type: 'string', maxLength: 100 } },
  required: ['into'],
} as const;

export const groupingBody = {
  type: 'object',
  properties: { enabled: { type: 'boolean' } },
  required: ['enabled'],
} as const;
