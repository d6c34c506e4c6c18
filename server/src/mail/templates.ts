// The messages the product sends, in English and Japanese. Plain text keeps links and codes
// easy to read in any mail program (and in the outbox files).
import type { Language } from '../auth/validation.ts';
import { PRODUCT_NAME, type MailMessage } from './mailer.ts';

type Template<A> = Record<Language, (args: A) => Omit<MailMessage, 'to'>>;

const resetPassword: Template<{ link: string; minutes: number }> = {
  en: ({ link, minutes }) => ({
    subject: `${PRODUCT_NAME}: reset your password`,
    text: [
      'Hello,',
      '',
      'We received a request to reset the password of your account.',
      'Open this link to choose a new password:',
      '',
      link,
      '',
      `The link works once and expires in ${minutes} minutes.`,
      'If you did not ask for this, you can ignore this e-mail: your password stays unchanged.',
      '',
      PRODUCT_NAME,
    ].join('\n'),
  }),
  ja: ({ link, minutes }) => ({
    subject: `${PRODUCT_NAME}：パスワード再設定のご案内`,
    text: [
      'こんにちは。',
      '',
      'お使いのアカウントのパスワード再設定のリクエストを受け付けました。',
      '次のリンクを開いて、新しいパスワードを設定してください。',
      '',
      link,
      '',
      `このリンクは1回のみ有効で、${minutes}分後に期限切れになります。`,
      'お心当たりがない場合は、このメールを無視してください。パスワードは変更されません。',
      '',
      PRODUCT_NAME,
    ].join('\n'),
  }),
};

const emailCode: Template<{ code: string; minutes: number }> = {
  en: ({ code, minutes }) => ({
    subject: `${PRODUCT_NAME}: your verification code ${code}`,
    text: [
      'Hello,',
      '',
      'Use this code to confirm your new e-mail address:',
      '',
      code,
      '',
      `The code is valid for ${minutes} minutes.`,
      'If you did not ask to change your e-mail address, you can ignore this e-mail.',
      '',
      PRODUCT_NAME,
    ].join('\n'),
  }),
  ja: ({ code, minutes }) => ({
    subject: `${PRODUCT_NAME}：確認コード ${code}`,
    text: [
      'こんにちは。',
      '',
      '新しいメールアドレスを確認するため、次のコードを入力してください。',
      '',
      code,
      '',
      `このコードの有効期限は${minutes}分です。`,
      'メールアドレスの変更をリクエストしていない場合は、このメールを無視してください。',
      '',
      PRODUCT_NAME,
    ].join('\n'),
  }),
};

const emailChanged: Template<{ newEmail: string }> = {
  en: ({ newEmail }) => ({
    subject: `${PRODUCT_NAME}: your e-mail address was changed`,
    text: [
      'Hello,',
      '',
      `The e-mail address of your account was changed to ${newEmail}.`,
      'From now on, sign in and receive messages with the new address.',
      'If you did not make this change, contact your administrator right away.',
      '',
      PRODUCT_NAME,
    ].join('\n'),
  }),
  ja: ({ newEmail }) => ({
    subject: `${PRODUCT_NAME}：メールアドレスが変更されました`,
    text: [
      'こんにちは。',
      '',
      `お使いのアカウントのメールアドレスが ${newEmail} に変更されました。`,
      '今後は新しいメールアドレスでログインし、お知らせを受け取ってください。',
      'この変更にお心当たりがない場合は、すぐに管理者へご連絡ください。',
      '',
      PRODUCT_NAME,
    ].join('\n'),
  }),
};

export const templates = { resetPassword, emailCode, emailChanged };
