// Profile calls (product-spec section 7).
import { api } from '../../lib/api';

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
  }),
});

export const { useGetProfileQuery, useChangePasswordMutation } = profileApi;
