import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import ja from '../../../lang/ja.json';
import { renderApp } from '../../testing/render-app';
import { renderAt } from '../../testing/render-at';
import { stubSignedIn, useStoredSession } from '../../testing/signed-in';
import { fakePeopleApi } from '../../testing/people-api-fake';

const FIRST = { timeout: 15_000 };

useStoredSession();

const here = () => window.location.pathname + window.location.search;
const groups = () => screen.getAllByTestId('face-group');
const named = () => screen.getAllByTestId('named-person').map((li) => li.textContent);

describe('People page (issue 30)', { timeout: 30_000 }, () => {
  it('shows the named people, then the unnamed groups biggest first with up to 4 faces', async () => {
    stubSignedIn(fakePeopleApi().routes);
    renderApp('/people');
    await screen.findByRole('heading', { level: 1, name: 'People' }, FIRST);
    await waitFor(() => expect(named()).toEqual(['Ana1 video · 1 scene']), FIRST);
    const ana = screen.getByRole<HTMLImageElement>('img', { name: 'Face of Ana' });
    expect(ana.src).toBe(`${location.origin}/assets/data/output/faces/1.jpg?sig=x`);
    await waitFor(() => expect(groups()).toHaveLength(2));
    const [big, small] = groups();
    expect(within(big!).getAllByRole('img')).toHaveLength(4);
    expect(within(big!).getByText('2 videos · 5 scenes')).toBeTruthy();
    expect(within(small!).getAllByRole('img')).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'People' }).getAttribute('aria-current')).toBe('page');
  });

  it('names a group: it moves to the named people', async () => {
    const fake = fakePeopleApi();
    const { sent } = stubSignedIn(fake.routes);
    const { user } = renderApp('/people');
    await waitFor(() => expect(groups()).toHaveLength(2), FIRST);
    await user.type(within(groups()[0]!).getByRole('combobox', { name: 'Name' }), ' Ben ');
    await user.click(within(groups()[0]!).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(named()).toEqual(['Ana1 video · 1 scene', 'Ben2 videos · 5 scenes']),
    );
    await waitFor(() => expect(groups()).toHaveLength(1));
    const patch = sent.find((r) => r.method === 'PATCH')!;
    expect(patch.url.pathname).toBe('/api/people/g-big');
    expect(patch.body).toEqual({ name: ' Ben ' });
  });

  it("shows the server's words for a duplicate name and adds the group to that person", async () => {
    const fake = fakePeopleApi();
    const { sent } = stubSignedIn(fake.routes);
    const { user } = renderApp('/people');
    await waitFor(() => expect(groups()).toHaveLength(2), FIRST);
    const group = groups()[1]!;
    await user.type(within(group).getByRole('combobox', { name: 'Name' }), 'ana');
    await user.click(within(group).getByRole('button', { name: 'Save' }));
    expect((await within(group).findByRole('alert')).textContent).toBe(
      'Another person already has this name. Merge them instead.',
    );
    await user.click(within(group).getByRole('button', { name: 'Add to Ana' }));
    await waitFor(() => expect(groups()).toHaveLength(1));
    await waitFor(() => expect(named()).toEqual(['Ana2 videos · 3 scenes']));
    const merge = sent.find((r) => r.url.pathname === '/api/people/g-small/merge')!;
    expect(merge.body).toEqual({ into: 'p-ana' });
  });

  it("shows the server's words for an empty name", async () => {
    stubSignedIn(fakePeopleApi().routes);
    const { user } = renderApp('/people');
    await waitFor(() => expect(groups()).toHaveLength(2), FIRST);
    await user.click(within(groups()[0]!).getByRole('button', { name: 'Save' }));
    expect((await within(groups()[0]!).findByRole('alert')).textContent).toBe('Enter a name.');
  });

  it('asks before turning face grouping off, which deletes the unnamed groups', async () => {
    const fake = fakePeopleApi();
    const { sent } = stubSignedIn(fake.routes);
    const { user } = renderApp('/people');
    const toggle = await screen.findByRole(
      'switch',
      { name: 'Group faces across the archive' },
      FIRST,
    );
    await waitFor(() => expect(groups()).toHaveLength(2));
    await user.click(toggle);
    const dialog = await screen.findByRole('alertdialog', {}, FIRST);
    expect(dialog.textContent).toContain('The unnamed groups are deleted');
    expect(sent.some((r) => r.method === 'PUT')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(screen.queryAllByTestId('face-group')).toHaveLength(0));
    expect(screen.getByText(/Face grouping is off for your team/)).toBeTruthy();
    expect(sent.find((r) => r.method === 'PUT')!.body).toEqual({ enabled: false });
    expect((toggle as HTMLInputElement).checked).toBe(false);
  });

  it('disables the setting for a member who is not a team administrator, and says why', async () => {
    stubSignedIn(fakePeopleApi({ canChange: false }).routes);
    renderApp('/people');
    const toggle = await screen.findByRole(
      'switch',
      { name: 'Group faces across the archive' },
      FIRST,
    );
    expect((toggle as HTMLInputElement).disabled).toBe(true);
    const hint = document.getElementById(toggle.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toContain('Only a team administrator can change this setting.');
  });

  it("shows the server's 403 when the role changed meanwhile, and stays signed in", async () => {
    stubSignedIn(fakePeopleApi({ canChange: true, refuseChange: true }).routes);
    const { user } = renderApp('/people');
    const toggle = await screen.findByRole(
      'switch',
      { name: 'Group faces across the archive' },
      FIRST,
    );
    await user.click(toggle);
    await user.click(await screen.findByRole('button', { name: 'Turn off' }, FIRST));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Only a team administrator can change this.',
    );
    expect(here()).toBe('/people');
  });

  it('says what to do when nobody is named and no group exists', async () => {
    const empty = { items: [], total: 0, pages: 0, page: 1, size: 24 };
    stubSignedIn({
      'GET /api/people': () => ({ status: 200, body: empty }),
      'GET /api/team/face-grouping': () => ({
        status: 200,
        body: { enabled: true, can_change: true },
      }),
    });
    renderApp('/people');
    expect(await screen.findByText('No one is named yet', {}, FIRST)).toBeTruthy();
    expect(screen.getByText(/Name one of the groups of faces below/)).toBeTruthy();
    expect(screen.getByText('No unnamed faces')).toBeTruthy();
  });

  it('is in Japanese when the interface is', async () => {
    stubSignedIn(fakePeopleApi().routes);
    await renderAt('/people', { locale: 'ja', signedIn: true });
    await screen.findByRole('heading', { level: 1, name: ja['people.title'] }, FIRST);
    await waitFor(() => expect(groups()).toHaveLength(2), FIRST);
    expect(screen.getByText('動画2本・シーン5件')).toBeTruthy();
    expect(screen.getByRole('switch', { name: ja['people.setting.label'] })).toBeTruthy();
  });
});

describe("A person's page (issue 30)", { timeout: 30_000 }, () => {
  it('lists their scenes newest first with links that play from the scene, and their faces', async () => {
    stubSignedIn(fakePeopleApi().routes);
    const { user } = renderApp('/people/g-big');
    await screen.findByRole('heading', { level: 1, name: 'Unnamed person' }, FIRST);
    await waitFor(() => expect(screen.getAllByTestId('person-face')).toHaveLength(5));
    const scenes = screen.getAllByTestId('person-scene');
    expect(scenes[2]!.textContent).toBe('Video v2Scene #3 at 0:12');
    const link = within(scenes[2]!).getByRole('link');
    expect(link.getAttribute('href')).toBe('/video-detail/v2?sceneIndex=3&t=12.5');
    const thumbnail = scenes[2]!.querySelector('img')!;
    expect(thumbnail.src).toBe(`${location.origin}/assets/data/output/v2/scene-3.jpg?sig=x`);
    stubSignedIn({}); // the detail is another feature's page: only where the link goes matters
    await user.click(link);
    await waitFor(() => expect(here()).toBe('/video-detail/v2?sceneIndex=3&t=12.5'));
  });

  it('takes a face away with "Not this person"', async () => {
    const fake = fakePeopleApi();
    const { sent } = stubSignedIn(fake.routes);
    const { user } = renderApp('/people/g-big');
    await waitFor(() => expect(screen.getAllByTestId('person-face')).toHaveLength(5), FIRST);
    await user.click(screen.getByRole('button', { name: 'Not this person: Video v1, scene #2' }));
    await waitFor(() => expect(screen.getAllByTestId('person-face')).toHaveLength(4));
    expect(
      screen.queryByRole('button', { name: 'Not this person: Video v1, scene #2' }),
    ).toBeNull();
    expect(screen.getAllByTestId('person-scene')).toHaveLength(4);
    expect(sent.some((r) => r.url.pathname === '/api/people/g-big/faces/12/reject')).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says the person is gone when their last face is taken away', async () => {
    stubSignedIn(fakePeopleApi().routes);
    const { user } = renderApp('/people/g-small');
    await waitFor(() => expect(screen.getAllByTestId('person-face')).toHaveLength(2), FIRST);
    await user.click(screen.getByRole('button', { name: 'Not this person: Video v2, scene #1' }));
    await waitFor(() => expect(screen.getAllByTestId('person-face')).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Not this person: Video v2, scene #2' }));
    expect(await screen.findByText(/This person no longer exists/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to People' })).toBeTruthy();
  });

  it('renames a person, and merges them into another after asking', async () => {
    const fake = fakePeopleApi();
    fake.people[1]!.name = 'Ben';
    const { sent } = stubSignedIn(fake.routes);
    const { user } = renderApp('/people/g-big');
    await screen.findByRole('heading', { level: 1, name: 'Ben' }, FIRST);
    await user.click(screen.getByRole('button', { name: 'Rename' }));
    const field = screen.getByRole('combobox', { name: 'Name' });
    await user.clear(field);
    await user.type(field, 'Benjamin');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('heading', { level: 1, name: 'Benjamin' });

    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Merge into another person' }),
      'Ana',
    );
    await user.click(screen.getByRole('button', { name: 'Merge' }));
    const dialog = await screen.findByRole('alertdialog', {}, FIRST);
    expect(dialog.textContent).toContain('Merge Benjamin into Ana?');
    await user.click(within(dialog).getByRole('button', { name: 'Merge' }));
    await waitFor(() => expect(here()).toBe('/people/p-ana'));
    await screen.findByRole('heading', { level: 1, name: 'Ana' });
    await waitFor(() => expect(screen.getAllByTestId('person-face')).toHaveLength(6));
    expect(sent.find((r) => r.url.pathname.endsWith('/merge'))!.body).toEqual({ into: 'p-ana' });
  });
});
