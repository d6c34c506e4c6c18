// People calls (issue 30): the team's named people and unnamed face groups, a person's scenes
// and faces, naming, merging, "not this person", and the team's face-grouping setting. A change
// to a person also changes the names shown by video details and search results, so those caches
// are dropped with it.
import {
  PEOPLE_PAGE_SIZE,
  PERSON_FACES_PAGE_SIZE,
  PERSON_SCENES_PAGE_SIZE,
} from '../../config/limits';
import { api } from '../../lib/api';

/** A named person, or an unnamed group when name is null. Face paths are signed asset paths. */
export interface PersonSummary {
  id: string;
  name: string | null;
  faceUrl: string | null;
  /** Up to 4 face crops. */
  faces: string[];
  faceCount: number;
  sceneCount: number;
  videoCount: number;
}

/** A scene that shows the person; times are "HH:mm:ss.SSS" like the scenes of a video. */
export interface PersonScene {
  videoId: string;
  videoTitle: string | null;
  sceneIndex: number;
  startTime: string;
  endTime: string;
  thumbnail: string | null;
  /** Face ids are bigints, sent as strings. */
  faceId: string;
  faceUrl: string | null;
}

export interface PersonFace {
  id: string;
  faceUrl: string | null;
  videoId: string;
  videoTitle: string | null;
  sceneIndex: number;
}

export interface PeoplePage<T> {
  items: T[];
  total: number;
  pages: number;
  page: number;
  size: number;
}

export interface FaceGrouping {
  enabled: boolean;
  canChange: boolean;
}

interface PagedArgs {
  page: number;
  size?: number;
}

/** What a change to people makes stale besides the person: lists, details and search results. */
const PEOPLE_SHOWN_ELSEWHERE = [
  { type: 'Person', id: 'LIST' },
  'Video',
  { type: 'Similar', id: 'LIST' },
] as const;

const peopleApi = api.injectEndpoints({
  endpoints: (build) => ({
    listPeople: build.query<PeoplePage<PersonSummary>, PagedArgs & { named: boolean }>({
      query: ({ named, page, size = PEOPLE_PAGE_SIZE }) => ({
        url: '/api/people',
        body: { named, page, size },
      }),
      providesTags: (result) => [
        { type: 'Person', id: 'LIST' },
        ...(result?.items ?? []).map((person) => ({ type: 'Person' as const, id: person.id })),
      ],
    }),
    getPerson: build.query<PersonSummary, string>({
      query: (id) => ({ url: `/api/people/${encodeURIComponent(id)}` }),
      providesTags: (_result, _error, id) => [{ type: 'Person', id }],
    }),
    listPersonScenes: build.query<PeoplePage<PersonScene>, PagedArgs & { id: string }>({
      query: ({ id, page, size = PERSON_SCENES_PAGE_SIZE }) => ({
        url: `/api/people/${encodeURIComponent(id)}/scenes`,
        body: { page, size },
      }),
      providesTags: (_result, _error, { id }) => [{ type: 'Person', id }],
    }),
    listPersonFaces: build.query<PeoplePage<PersonFace>, PagedArgs & { id: string }>({
      query: ({ id, page, size = PERSON_FACES_PAGE_SIZE }) => ({
        url: `/api/people/${encodeURIComponent(id)}/faces`,
        body: { page, size },
      }),
      providesTags: (_result, _error, { id }) => [{ type: 'Person', id }],
    }),
    namePerson: build.mutation<PersonSummary, { id: string; name: string }>({
      query: ({ id, name }) => ({
        url: `/api/people/${encodeURIComponent(id)}`,
        method: 'PATCH',
        body: { name },
      }),
      invalidatesTags: (_result, error, { id }) =>
        error ? [] : [{ type: 'Person', id }, ...PEOPLE_SHOWN_ELSEWHERE],
    }),
    /** The merged person is gone: only `into` and the lists are fetched again. */
    mergePerson: build.mutation<PersonSummary, { id: string; into: string }>({
      query: ({ id, into }) => ({
        url: `/api/people/${encodeURIComponent(id)}/merge`,
        method: 'POST',
        body: { into },
      }),
      invalidatesTags: (_result, error, { into }) =>
        error ? [] : [{ type: 'Person', id: into }, ...PEOPLE_SHOWN_ELSEWHERE],
    }),
    rejectFace: build.mutation<null, { personId: string; faceId: string }>({
      async queryFn({ personId, faceId }, _api, _extra, baseQuery) {
        const result = await baseQuery({
          url: `/api/people/${encodeURIComponent(personId)}/faces/${encodeURIComponent(faceId)}/reject`,
          method: 'POST',
        });
        // The call answers 204 No Content, which the section 7 rule (200/201 only) calls a failure.
        if (!result.error || result.error.status === 204) return { data: null };
        return { error: result.error };
      },
      invalidatesTags: (_result, error, { personId }) =>
        error ? [] : [{ type: 'Person', id: personId }, ...PEOPLE_SHOWN_ELSEWHERE],
    }),
    getFaceGrouping: build.query<FaceGrouping, void>({
      query: () => ({ url: '/api/team/face-grouping' }),
      providesTags: ['FaceGrouping'],
    }),
    setFaceGrouping: build.mutation<FaceGrouping, boolean>({
      query: (enabled) => ({ url: '/api/team/face-grouping', method: 'PUT', body: { enabled } }),
      // Turning grouping off deletes the unnamed groups, whose names nobody saw anyway.
      invalidatesTags: (_result, error) =>
        error ? [] : ['FaceGrouping', { type: 'Person', id: 'LIST' }],
    }),
  }),
});

export const {
  useListPeopleQuery,
  useGetPersonQuery,
  useListPersonScenesQuery,
  useListPersonFacesQuery,
  useNamePersonMutation,
  useMergePersonMutation,
  useRejectFaceMutation,
  useGetFaceGroupingQuery,
  useSetFaceGroupingMutation,
} = peopleApi;
