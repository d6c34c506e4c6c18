// Issue 29 on the detail page, through the whole app with the API answered at the fetch edge:
// posters, the full player (captions track, chapters, current scene, keys), the transcript, the
// people and object chips, the downloads and the deep links. jsdom plays no media: play() and
// pause() only record the call and send the events a browser sends.
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setOnline } from '../../testing/online';
import { renderApp } from '../../testing/render-app';
import { renderAt } from '../../testing/render-at';
import { EMPTY_LIST, stubSignedIn, useStoredSession } from '../../testing/signed-in';
import { completedVideoFixture, sceneFixture } from '../../testing/video-fixtures';

// The first screen of a file compiles the lazy route: generous on a loaded machine.
const FIRST = { timeout: 30_000 };
const ID = '0b9f6a52-0000-4000-8000-000000000029';
const SIG = '?exp=1&sig=s';

const scene = (i: number, extra: Record<string, unknown> = {}) => ({
  ...sceneFixture(i),
  thumbnail: `${ID}/scenes/${i}/thumb.jpg${SIG}`,
  video_path: `${ID}/scenes/${i}/clip.mp4${SIG}`,
  ...extra,
});

const CUES = [
  { start_time: '00:00:00.500', end_time: '00:00:01.800', text: 'Good morning from the harbour' },
  { start_time: '00:00:02.000', end_time: '00:00:03.500', text: 'The boats leave at dawn' },
  { start_time: '00:00:04.100', end_time: '00:00:05.900', text: 'Gulls follow the boats' },
];

const DETAIL = {
  ...completedVideoFixture(ID, []),
  output_data: {
    scenes: [
      scene(0, {
        people: [{ name: 'Franck Dupont', face_thumbnail: `${ID}/faces/0.jpg${SIG}` }],
        objects: ['boat', 'cell phone', 'boat'],
        screen_text: 'HARBOUR OFFICE',
      }),
      scene(1),
      scene(2),
    ],
    captions: CUES,
  },
  video_path: `${ID}/video.mp4${SIG}`,
  video_thumbnail_path: `${ID}/thumb.jpg${SIG}`,
  video_length: 6,
  trailer_path: `${ID}/trailer.mp4${SIG}`,
  captions_track: { path: `${ID}/captions.vtt${SIG}`, language: 'en' },
  captions_note: null,
  downloads: {
    captions_vtt: `${ID}/downloads/captions.vtt${SIG}`,
    captions_srt: `${ID}/downloads/captions.srt${SIG}`,
    scenes_csv: `${ID}/downloads/scenes.csv${SIG}`,
    analysis_json: `${ID}/downloads/analysis.json${SIG}`,
  },
};

const asset = (path: string) => `/assets/data/output/${path}`;
const here = () => window.location.pathname + window.location.search;

useStoredSession();

let played: HTMLMediaElement[];
beforeEach(() => {
  played = [];
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    played.push(this);
    Object.defineProperty(this, 'paused', { configurable: true, value: false });
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    Object.defineProperty(this, 'paused', { configurable: true, value: true });
    this.dispatchEvent(new Event('pause'));
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  setOnline(true);
});

const open = (path: string, body: unknown = DETAIL) => {
  stubSignedIn({
    [`GET /api/videos/${ID}`]: () => ({ status: 200, body }),
    'GET /api/videos/find-similar-scenes': () => ({ status: 200, body: EMPTY_LIST }),
  });
  return renderApp(path);
};

/** The media element's time moves as when playing: the page hears timeupdate. */
function playTo(video: HTMLVideoElement, seconds: number) {
  act(() => {
    video.currentTime = seconds;
    video.dispatchEvent(new Event('timeupdate'));
  });
}

async function openPlayer(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Watch full video' }, FIRST));
  const dialog = await screen.findByRole('dialog', {}, FIRST);
  const video = within(dialog).getByTestId('full-video') as HTMLVideoElement;
  return { dialog, video };
}

describe('Watching a video', { timeout: 60_000 }, () => {
  it('gives the scene clip, the full video and the trailer a poster', async () => {
    const { user } = open(`/video-detail/${ID}`);
    const clip = (await screen.findByTestId('scene-clip', {}, FIRST)) as HTMLVideoElement;
    expect(clip.getAttribute('poster')).toContain(asset(`${ID}/scenes/0/thumb.jpg`));
    const { video } = await openPlayer(user);
    expect(video.getAttribute('poster')).toContain(asset(`${ID}/thumb.jpg`));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Watch trailer' }));
    const trailer = (await screen.findByRole('dialog', {}, FIRST)).querySelector('video')!;
    expect(trailer.getAttribute('src')).toContain('trailer.mp4');
    expect(trailer.getAttribute('poster')).toContain(asset(`${ID}/scenes/0/thumb.jpg`));
  });

  it('plays the full video with its captions on, the scenes as chapters, and seeks by chapter', async () => {
    const { user } = open(`/video-detail/${ID}`);
    const { dialog, video } = await openPlayer(user);
    const track = video.querySelector('track')!;
    expect(track.getAttribute('kind')).toBe('captions');
    expect(track.getAttribute('srclang')).toBe('en');
    expect(track.getAttribute('label')).toBe('English');
    expect(track.hasAttribute('default')).toBe(true);
    expect(track.getAttribute('src')).toContain(asset(`${ID}/captions.vtt`));

    const chapters = within(dialog).getAllByTestId('chapter');
    expect(chapters.map((c) => c.getAttribute('aria-label'))).toEqual([
      'Scene #0, 0:00 to 0:02',
      'Scene #1, 0:02 to 0:04',
      'Scene #2, 0:04 to 0:06',
    ]);
    // Only one mark is a tab stop; hovering one shows its picture and times.
    expect(chapters.map((c) => c.tabIndex)).toEqual([0, -1, -1]);
    await user.hover(chapters[2]!);
    const preview = within(dialog).getByTestId('chapter-preview');
    expect(preview.textContent).toBe('Scene #2, 0:04 to 0:06');
    expect(preview.querySelector('img')!.getAttribute('src')).toContain('/scenes/2/thumb.jpg');

    await user.click(chapters[1]!);
    expect(video.currentTime).toBe(2);
    expect(chapters[1]!.getAttribute('aria-current')).toBe('true');
    expect(within(dialog).getByTestId('current-scene').textContent).toBe(
      'Now playing: scene #1 (0:02 to 0:04)',
    );
    // As the video plays on, the scene it reaches is the one marked.
    playTo(video, 4.5);
    expect(chapters[2]!.getAttribute('aria-current')).toBe('true');
    expect(chapters[1]!.hasAttribute('aria-current')).toBe(false);
  });

  it('moves between scenes and plays or pauses from the keyboard', async () => {
    const { user } = open(`/video-detail/${ID}`);
    const { dialog, video } = await openPlayer(user);
    const chapters = within(dialog).getAllByTestId('chapter');
    chapters[0]!.focus();
    await user.keyboard('n');
    expect(video.currentTime).toBe(2);
    await user.keyboard('n');
    expect(video.currentTime).toBe(4);
    await user.keyboard('p');
    expect(video.currentTime).toBe(2);
    await user.keyboard('k');
    expect(video.paused).toBe(true);
    expect(within(dialog).getByRole('button', { name: 'Play' })).toBeTruthy();
    await user.keyboard('k');
    expect(video.paused).toBe(false);
    // The arrow keys move focus along the timeline without seeking; Enter seeks.
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(chapters[2]);
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(chapters[1]);
    await user.keyboard('{Home}{Enter}');
    expect(video.currentTime).toBe(0);
  });

  it('shows the transcript, filters it, and a line opens the player at its time', async () => {
    const { user } = open(`/video-detail/${ID}`);
    const panel = await screen.findByTestId('transcript', {}, FIRST);
    const lines = () =>
      within(panel)
        .getAllByRole('button')
        .map((b) => b.textContent);
    await waitFor(() => expect(lines()).toHaveLength(3));
    expect(lines()[1]).toBe('0:02 The boats leave at dawn');
    await user.type(
      within(panel).getByRole('searchbox', { name: 'Search the transcript' }),
      'BOATS',
    );
    await waitFor(() => expect(lines()).toHaveLength(2));
    expect([...panel.querySelectorAll('mark')].map((m) => m.textContent)).toEqual([
      'boats',
      'boats',
    ]);
    expect(panel.textContent).toContain('2 of 3 lines contain the text.');

    await user.click(within(panel).getByRole('button', { name: /Gulls follow/ }));
    const dialog = await screen.findByRole('dialog', {}, FIRST);
    const video = within(dialog).getByTestId('full-video') as HTMLVideoElement;
    fireEvent.loadedMetadata(video);
    expect(video.currentTime).toBeCloseTo(4.1);
    // In the player the line being spoken is highlighted, and a line seeks.
    playTo(video, 4.5);
    const spoken = () => dialog.querySelector('[data-testid="transcript"] [aria-current="true"]');
    expect(spoken()?.textContent).toBe('0:04 Gulls follow the boats');
    await user.click(within(dialog).getByRole('button', { name: /Good morning/ }));
    expect(video.currentTime).toBe(0.5);
    playTo(video, 1.9); // between two lines: none is spoken
    expect(spoken()).toBeNull();
  });

  it.each([
    ['none_embedded', 'en', 'no transcription service is set up'],
    ['none_spoken', 'en', 'found no speech'],
    ['none_embedded', 'ja', '文字起こしサービスも設定されていません'],
  ] as const)('says why there are no captions (%s, %s)', async (note, locale, words) => {
    stubSignedIn({
      [`GET /api/videos/${ID}`]: () => ({
        status: 200,
        body: {
          ...DETAIL,
          output_data: { ...DETAIL.output_data, captions: [] },
          captions_track: null,
          captions_note: note,
        },
      }),
    });
    await renderAt(`/video-detail/${ID}`, { locale, signedIn: true });
    const panel = await screen.findByTestId('transcript', {}, FIRST);
    expect(within(panel).getByTestId('transcript-note').textContent).toContain(words);
    expect(within(panel).queryByRole('searchbox')).toBeNull();
  });

  it('shows who and what is in the scene, and a chip searches for it', async () => {
    const { user } = open(`/video-detail/${ID}`);
    const chips = await screen.findByTestId('scene-chips', {}, FIRST);
    const people = within(chips).getByRole('list', { name: 'People in this scene' });
    const face = people.querySelector('img')!;
    expect(face.getAttribute('src')).toContain(asset(`${ID}/faces/0.jpg`));
    const objects = within(chips).getByRole('list', { name: 'Seen in this scene' });
    // Translated, once each.
    expect(
      within(objects)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Boat', 'Mobile phone']);
    expect(within(chips).getByTestId('screen-text').textContent).toContain('HARBOUR OFFICE');
    await user.click(
      within(people).getByRole('button', { name: 'Search scenes for Franck Dupont' }),
    );
    await waitFor(() =>
      expect(here()).toBe(
        '/video/similar?video=false&kValue=10&description=Franck%20Dupont&searchMethod=hybrid',
      ),
    );
  });

  it('names the objects in Japanese', async () => {
    stubSignedIn({ [`GET /api/videos/${ID}`]: () => ({ status: 200, body: DETAIL }) });
    await renderAt(`/video-detail/${ID}`, { locale: 'ja', signedIn: true });
    const objects = await screen.findByRole('list', { name: 'このシーンに映っているもの' }, FIRST);
    expect(
      within(objects)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['ボート', '携帯電話']);
  });

  it('offers the captions, scene list and analysis as signed downloads', async () => {
    const { user } = open(`/video-detail/${ID}`);
    const button = await screen.findByRole('button', { name: 'Downloads' }, FIRST);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const list = within(screen.getByTestId('downloads')).getByRole('list');
    expect(button.getAttribute('aria-controls')).toBe(list.id);
    const links = within(list).getAllByRole('link');
    expect(
      links.map((a) => [
        a.textContent,
        new URL(a.getAttribute('href')!, window.location.href).pathname +
          new URL(a.getAttribute('href')!, window.location.href).search,
        a.hasAttribute('download'),
      ]),
    ).toEqual([
      ['Captions (.vtt)', asset(`${ID}/downloads/captions.vtt${SIG}`), true],
      ['Captions (.srt)', asset(`${ID}/downloads/captions.srt${SIG}`), true],
      ['Scene list (.csv)', asset(`${ID}/downloads/scenes.csv${SIG}`), true],
      ['Whole analysis (.json)', asset(`${ID}/downloads/analysis.json${SIG}`), true],
    ]);
  });

  it('closes the downloads on Escape with the focus back on its button, and on a click outside', async () => {
    const { user } = open(`/video-detail/${ID}`);
    const button = await screen.findByRole('button', { name: 'Downloads' }, FIRST);
    const shown = () => screen.queryByRole('link', { name: 'Scene list (.csv)' });

    // By keyboard: Enter opens, Tab reaches the files, Escape closes and returns to the button.
    button.focus();
    await user.keyboard('{Enter}');
    expect(shown()).not.toBeNull();
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Captions (.vtt)');
    await user.keyboard('{Escape}');
    expect(shown()).toBeNull();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);

    // A click elsewhere on the page closes it.
    await user.click(button);
    expect(shown()).not.toBeNull();
    await user.click(screen.getByRole('heading', { level: 1 }));
    expect(shown()).toBeNull();

    // Tabbing past the last file closes it too.
    await user.click(button);
    for (let i = 0; i < 5; i++) await user.tab();
    expect(shown()).toBeNull();
  });

  it('turns the downloads off offline, saying why: the server makes each file', async () => {
    open(`/video-detail/${ID}`);
    await screen.findByTestId('downloads', {}, FIRST);
    setOnline(false);
    const button = await screen.findByRole('button', { name: 'Downloads' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button.title).toBe('This needs a network connection. You are offline.');
    expect(screen.queryByRole('link', { name: 'Scene list (.csv)', hidden: true })).toBeNull();
    setOnline(true);
    expect(await screen.findByTestId('downloads')).toBeTruthy();
  });

  it('a deep link with a scene and a time opens the full player there, the scene selected behind it', async () => {
    open(`/video-detail/${ID}?sceneIndex=2&t=5.5`);
    const dialog = await screen.findByRole('dialog', {}, FIRST);
    const video = within(dialog).getByTestId('full-video') as HTMLVideoElement;
    fireEvent.loadedMetadata(video);
    await waitFor(() => expect(video.currentTime).toBe(5.5));
    expect(screen.getByRole('heading', { name: 'Scene #2', hidden: true })).toBeTruthy();
    // The full video plays, not the scene's clip.
    expect(played.some((m) => m.dataset.testid === 'scene-clip')).toBe(false);
  });

  it('catches up with a video that read its metadata and started before the player was shown', async () => {
    // The lazy dialog can commit after the element has loaded and begun to autoplay; React drops
    // the events of an uncommitted tree, so the player must read the element's state itself.
    vi.spyOn(HTMLMediaElement.prototype, 'readyState', 'get').mockReturnValue(1);
    vi.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockReturnValue(false);
    open(`/video-detail/${ID}?t=3`);
    const dialog = await screen.findByRole('dialog', {}, FIRST);
    const video = within(dialog).getByTestId('full-video') as HTMLVideoElement;
    await waitFor(() => expect(video.currentTime).toBe(3));
    expect(await within(dialog).findByRole('button', { name: 'Pause' }, FIRST)).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Play' })).toBeNull();
  });

  it('plays the scene of a search hit from its start, and a time alone opens the full player there', async () => {
    open(`/video-detail/${ID}?sceneIndex=2&play=1`);
    expect(await screen.findByRole('heading', { name: 'Scene #2' }, FIRST)).toBeTruthy();
    const clip = screen.getByTestId('scene-clip') as HTMLVideoElement;
    await waitFor(() => expect(played).toContain(clip));
    expect(clip.currentTime).toBe(0);
    expect(clip.getAttribute('src')).toContain('/scenes/2/clip.mp4');
    expect(screen.queryByRole('dialog')).toBeNull();

    vi.unstubAllGlobals();
    cleanup();
    played = [];
    open(`/video-detail/${ID}?t=3`);
    const dialog = await screen.findByRole('dialog', {}, FIRST);
    const video = within(dialog).getByTestId('full-video') as HTMLVideoElement;
    fireEvent.loadedMetadata(video);
    expect(video.currentTime).toBe(3);
    // A time alone plays the full video, not the scene's clip.
    expect(played.some((m) => m.dataset.testid === 'scene-clip')).toBe(false);
  });
});
