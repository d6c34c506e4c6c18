// Account fields as the server checks them (server/src/auth/validation.ts,
// docs/decisions/profile-fields.md), so Save stays disabled for what the server would refuse anyway.
import { pattern, required, type Rule } from '../../lib/validation';

export const FULL_NAME_MAX_LENGTH = 100;
export const USERNAME_PATTERN = /^[A-Za-z0-9._-]{3,50}$/;

/** The server's resend spacing for e-mail change codes (30 s); a 429 waits a minute. */
export const RESEND_COOLDOWN_SECONDS = 30;
export const RATE_LIMITED_COOLDOWN_SECONDS = 60;

export const accountRules: Record<'fullName' | 'username', Rule[]> = {
  fullName: [required],
  username: [
    required,
    (value) => pattern(USERNAME_PATTERN, 'profile.account.username')(value.trim(), {}),
  ],
};
