// Profile calls (product-spec section 7).
import { api } from '../../lib/api';
import type { AppLocale } from '../../lib/i18n';

export interface Profile {
  id: number | string;
  email: string;
  fullName: string | null;
  username: string | null;
  team: { name: string } | null;
  mustChangePassword?: boolean;
  isTeamAdmin?: boolean;
  language?: string | null;
}

export interface ChangePasswordPayload {
  current_password: string;
  new_password: string;
  confirmation_password: string;
}

export interface UpdateProfilePayload {
  full_name: string;
  username: string;
}

export interface EmailChangeRequestPayload {
  current_password: string;
  new_email: string;
  language: AppLocale;
}

export interface EmailChangeVerifyPayload {
  otp: string;
  new_email: string;
  language: AppLocale;
}

export interface DeleteAccountPayload {
  id: Profile['id'];
  current_password: string;
}

const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    getProfile: build.query<Profile, void>({
      query: () => ({ url: '/api/profile' }),
      providesTags: ['Profile'],
    }),
    changePassword: build.mutation<unknown, ChangePasswordPayload>({
      query: (body) => ({ url: '/api/change-password', method: 'POST', body }),
      invalidatesTags: ['Profile'],
    }),
    // Both answer the fresh profile: it replaces the cached one without a second request.
    updateProfile: build.mutation<Profile, UpdateProfilePayload>({
      query: (body) => ({ url: '/api/users/update-profile', method: 'PUT', body }),
      onQueryStarted: async (_args, { dispatch, queryFulfilled }) => {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) void dispatch(profileApi.util.upsertQueryData('getProfile', undefined, data));
      },
    }),
    requestEmailChange: build.mutation<unknown, EmailChangeRequestPayload>({
      query: (body) => ({ url: '/api/users/change-email-request', method: 'POST', body }),
    }),
    verifyEmailChange: build.mutation<Profile, EmailChangeVerifyPayload>({
      query: (body) => ({ url: '/api/users/change-email-verify-otp', method: 'POST', body }),
      onQueryStarted: async (_args, { dispatch, queryFulfilled }) => {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) void dispatch(profileApi.util.upsertQueryData('getProfile', undefined, data));
      },
    }),
    // The spec's DELETE has no payload; the server asks for the current password as well.
    deleteAccount: build.mutation<unknown, DeleteAccountPayload>({
      query: ({ id, ...body }) => ({
        url: `/api/users/${encodeURIComponent(String(id))}`,
        method: 'DELETE',
        body,
      }),
    }),
  }),
});

export const {
  useGetProfileQuery,
  useChangePasswordMutation,
  useUpdateProfileMutation,
  useRequestEmailChangeMutation,
  useVerifyEmailChangeMutation,
  useDeleteAccountMutation,
} = profileApi;
