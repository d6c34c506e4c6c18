// Trailer and report requests (product-spec section 7). The answer is the video with its
// creating flag set; the cached detail is refreshed so the page shows the processing note.
import { api } from '../../lib/api';

export type OutputKind = 'trailer' | 'report';

/** The fields of a video this feature reads (the detail page passes its video). */
export interface OutputsVideo {
  id: string;
  trailerPath?: string | null;
  reportPath?: string | null;
  isTrailerCreating?: boolean;
  isReportCreating?: boolean;
}

export interface MakeOutputArgs {
  kind: OutputKind;
  videoId: string;
  instruction: string;
}

const outputsApi = api.injectEndpoints({
  endpoints: (build) => ({
    makeOutput: build.mutation<unknown, MakeOutputArgs>({
      query: ({ kind, videoId, instruction }) => ({
        url: `/api/videos/${encodeURIComponent(videoId)}/make-${kind}`,
        method: 'POST',
        body:
          kind === 'trailer'
            ? { trailer_instruction: instruction }
            : { report_instruction: instruction },
      }),
      invalidatesTags: (_result, _error, { videoId }) => [
        { type: 'Video', id: videoId },
        { type: 'Video', id: 'LIST' },
      ],
    }),
  }),
});

export const { useMakeOutputMutation } = outputsApi;
