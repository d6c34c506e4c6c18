// Sign-in flow calls (product-spec section 7). They go without a token: the visitor has none.
import { api } from '../../lib/api';

export interface LoginPayload {
  email: string;
  password: string;
}

export interface ResetPasswordPayload {
  password: string;
  confirmationPassword: string;
  resetToken: string;
}

const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<unknown, LoginPayload>({
      query: (body) => ({ url: '/api/login', method: 'POST', body, auth: false }),
    }),
    forgotPassword: build.mutation<unknown, { email: string }>({
      query: (body) => ({ url: '/api/forgot-password', method: 'POST', body, auth: false }),
    }),
    resetPassword: build.mutation<unknown, ResetPasswordPayload>({
      query: (body) => ({ url: '/api/reset-password', method: 'POST', body, auth: false }),
    }),
  }),
});

export const { useLoginMutation, useForgotPasswordMutation, useResetPasswordMutation } = authApi;
