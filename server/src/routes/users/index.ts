// The signed-in user's own account: profile fields, e-mail change with a code, deletion.
import type { FastifyInstance } from 'fastify';
import { deleteAccount } from '../../accounts/delete-account.ts';
import {
  assertNewAddress,
  notifyOldAddress,
  requestEmailChange,
  reserveCodeSend,
  verifyEmailChange,
} from '../../accounts/email-change.ts';
import { profileOf } from '../../accounts/profile.ts';
import { languageOr, requireEmail, requireString, validateProfile } from '../../auth/validation.ts';
import type { AppContext } from '../../context.ts';
import { fieldError, HttpError } from '../../lib/http-error.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { findUserById, updateProfile } from '../../repositories/users.ts';
import {
  bodyOf,
  checkCurrentPassword,
  textBody,
  tooManyAttempts,
  withHashSlot,
} from '../auth/guards.ts';

export const CODE_SENT = 'A verification code has been sent to the new email address.';

const profileBody = textBody(['full_name', 'username', 'language']);
const changeBody = textBody(['current_password', 'new_email', 'language']);
const verifyBody = textBody(['otp', 'new_email', 'language']);

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.put('/api/users/update-profile', { schema: profileBody }, async (request) => {
    const { user } = requireAuth(request);
    const body = bodyOf(request);
    const fields = validateProfile(body);
    const language = body.language === undefined ? undefined : languageOr(body.language, 'en');
    const updated = await updateProfile(
      ctx.db,
      { id: user.id, teamId: user.team_id },
      { ...fields, ...(language ? { language } : {}) },
    );
    if (!updated) throw fieldError('username', 'username is already taken');
    const fresh = await findUserById(ctx.db, user.id);
    return profileOf(fresh ?? user);
  });

  app.post('/api/users/change-email-request', { schema: changeBody }, async (request, reply) => {
    const { user } = requireAuth(request);
    const body = bodyOf(request);
    const password = requireString(body.current_password, 'current_password');
    const newEmail = requireEmail(body.new_email, 'new_email');
    const language = languageOr(body.language, languageOr(user.language, 'en'));
    await withHashSlot(request, reply, (hashing) =>
      checkCurrentPassword(ctx, reply, hashing, user, password),
    );
    assertNewAddress(user, newEmail);
    const wait = await reserveCodeSend(ctx, user.id);
    if (wait > 0) throw tooManyAttempts(reply, wait);
    await requestEmailChange(ctx, user, newEmail, language);
    return { detail: CODE_SENT };
  });

  app.post('/api/users/change-email-verify-otp', { schema: verifyBody }, async (request) => {
    const auth = requireAuth(request);
    const user = auth.user;
    const body = bodyOf(request);
    const code = requireString(body.otp, 'otp').trim();
    if (!/^\d{6}$/.test(code)) throw fieldError('otp', 'otp must be 6 digits');
    const newEmail = requireEmail(body.new_email, 'new_email');
    const language = languageOr(body.language, languageOr(user.language, 'en'));
    const changed = await verifyEmailChange(ctx, auth, newEmail, code);
    try {
      await notifyOldAddress(ctx, changed.oldEmail, changed.newEmail, language);
    } catch (err) {
      request.log.error({ err }, 'notifying the previous e-mail address failed');
    }
    const fresh = await findUserById(ctx.db, user.id);
    return profileOf(fresh ?? user);
  });

  app.delete<{ Params: { id: string } }>(
    '/api/users/:id',
    // No body schema: a DELETE with no body at all is answered with its missing field.
    async (request, reply) => {
      const { user } = requireAuth(request);
      if (request.params.id !== user.id) {
        throw new HttpError(403, 'You can only delete your own account.');
      }
      // A stolen session alone cannot delete the account: the password is asked again.
      const password = requireString(bodyOf(request).current_password, 'current_password');
      await withHashSlot(request, reply, (hashing) =>
        checkCurrentPassword(ctx, reply, hashing, user, password),
      );
      const { deletedVideos } = await deleteAccount(ctx, user.id);
      return { status: 'deleted', deleted_videos: deletedVideos };
    },
  );
}
