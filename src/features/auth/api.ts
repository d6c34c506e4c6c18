// Sign-in flow calls (product-spec section 7). They go without a token: the visitor has none.
// Plain requests rather than RTK Query endpoints keep these first screens small.
import type { ApiRequest } from '../../lib/base-query';
import { useRequest } from '../../lib/use-request';

export interface LoginPayload {
  email: string;
  password: string;
}

export interface ResetPasswordPayload {
  password: string;
  confirmationPassword: string;
  resetToken: string;
}

const post =
  <A>(url: string) =>
  (body: A): ApiRequest => ({ url, method: 'POST', body, auth: false });

const loginRequest = post<LoginPayload>('/api/login');
const forgotPasswordRequest = post<{ email: string }>('/api/forgot-password');
const resetPasswordRequest = post<ResetPasswordPayload>('/api/reset-password');

export const useLogin = () => useRequest(loginRequest);
export const useForgotPassword = () => useRequest(forgotPasswordRequest);
export const useResetPassword = () => useRequest(resetPasswordRequest);
