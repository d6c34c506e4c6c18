import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../lang/en.json';
import ja from '../../../lang/ja.json';
import { LOGIN_ANSWER, stubFetch } from '../../testing/fetch-stub';
import { renderAt } from '../../testing/render-at';

const FIRST = { timeout: 15_000 };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

/** The facts of product-spec section 1 as the English policy states them. */
const ENGLISH_FACTS = [
  'deleted automatically 3 years after upload',
  'completed within 30 days',
  'kept while your account is active',
  'Communication records are kept for 2 years',
  'within 72 hours',
  'within one month',
  'children under 16',
  'uses no cookies and no tracking',
  'European Union (EU) region',
  'a second AI provider, and an embeddings provider',
  'Team administrators manage member access',
  'GDPR',
  // Face data (issue 30): what, why, within the team, deletion, and the team setting.
  'crops) of the faces seen in them',
  'a face descriptor',
  'the names that members of your team give to people',
  'find a person across its own archive',
  'compared only with faces of the same team',
  'deleted with the video it comes from, with the person it was given to, and with your account',
  'by the 3-year retention',
  'turn face grouping off',
  "deletes the team's unnamed groups",
];

const JAPANESE_FACTS = [
  'アップロードから3年後に自動的に削除',
  '30日以内に完了',
  'アカウントが有効な間保存',
  '連絡記録は2年間保存',
  '72時間以内',
  '1か月以内',
  '16歳未満',
  'Cookieを使用せず',
  '欧州連合（EU）リージョン',
  '第二のAI提供事業者',
  'チーム管理者が管理',
  'GDPR',
  '顔の小さな画像（切り抜き）',
  '特徴量',
  'チームのメンバーが人物に付けた名前',
  '同じチームの顔どうしでのみ',
  '3年間の保存期間',
  'チームの名前のないグループは削除',
];

describe('Privacy policy (sections 1 and 2)', { timeout: 30_000 }, () => {
  it('states the retention facts in English with the last-updated date, and offers Login', async () => {
    stubFetch({});
    const { user } = await renderAt('/privacy-policy');
    await screen.findByRole('heading', { level: 1, name: 'Privacy policy' }, FIRST);
    const text = document.body.textContent ?? '';
    for (const fact of ENGLISH_FACTS) expect(text).toContain(fact);
    expect(screen.getByRole('heading', { level: 2, name: '7. Face data' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: '12. Changes and contact' })).toBeTruthy();
    expect(screen.getByText('Last updated: 2024/12/24')).toBeTruthy();
    expect(screen.getByRole('link', { name: en['privacy.home'] }).getAttribute('href')).toBe(
      '/video',
    );
    await user.click(screen.getByRole('link', { name: en['privacy.login'] }));
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
  });

  it('is in Japanese when the interface is', async () => {
    stubFetch({});
    await renderAt('/privacy-policy', { locale: 'ja' });
    await screen.findByRole('heading', { level: 1, name: ja['privacy.title'] }, FIRST);
    const text = document.body.textContent ?? '';
    for (const fact of JAPANESE_FACTS) expect(text).toContain(fact);
    expect(screen.getByText('最終更新日：2024/12/24')).toBeTruthy();
    expect(text).not.toContain('Communication records');
  });

  it('shows no Login link to a signed-in user', async () => {
    stubFetch({
      'GET /api/refresh': () => ({ status: 200, body: LOGIN_ANSWER }),
      'GET /api/profile': () => ({ status: 200, body: LOGIN_ANSWER.user }),
    });
    await renderAt('/privacy-policy', { signedIn: true });
    await screen.findByRole('heading', { level: 1, name: 'Privacy policy' }, FIRST);
    await waitFor(() =>
      expect(screen.queryByRole('link', { name: en['privacy.login'] })).toBeNull(),
    );
    expect(screen.getByRole('link', { name: en['privacy.home'] })).toBeTruthy();
  });

  it('shows Unknown when the date setting is empty', async () => {
    vi.stubEnv('VITE_PRIVACY_LAST_UPDATED', '');
    vi.resetModules();
    // Fresh modules read the setting again; they bring their own store and providers.
    const [{ PrivacyPolicyPage }, { Providers }, { createStore }, { englishMessages }] =
      await Promise.all([
        import('./components/PrivacyPolicyPage'),
        import('../../app/providers'),
        import('../../app/store'),
        import('../../lib/i18n'),
      ]);
    stubFetch({});
    render(
      <Providers store={createStore()} locale={{ locale: 'en', messages: englishMessages }}>
        <PrivacyPolicyPage />
      </Providers>,
    );
    expect(await screen.findByText('Last updated: Unknown', {}, FIRST)).toBeTruthy();
  });
});
