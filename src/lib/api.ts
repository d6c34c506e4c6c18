// The one RTK Query API for the one API host; features add endpoints with injectEndpoints.
import { createApi } from '@reduxjs/toolkit/query/react';
import { registerApi } from './api-registry';
import { API_REDUCER_PATH, baseQuery } from './base-query';

export const api = createApi({
  reducerPath: API_REDUCER_PATH,
  baseQuery,
  tagTypes: ['Video', 'Profile', 'Languages', 'Similar', 'Person', 'FaceGrouping'],
  // Offline screens show cached answers; back online they refresh (src/features/pwa/OfflineBanner).
  refetchOnReconnect: true,
  endpoints: () => ({}),
});

declare module './api-registry' {
  interface ApiRegistry {
    api: typeof api;
  }
}

registerApi(api);
