// Watching and finding the moment (issue 29), server side, over one video analysed by the real
// pipeline (local provider, real ffmpeg): a subtitle track and words drawn on screen. Its detail
// carries the captions track, served as text/vtt with its cues; the downloads (VTT, SRT, scene
// CSV, analysis JSON) come named after the video and read back right; a search for a caption word
// or an on-screen word says why it matched; and every download keeps to the team and its
// signature like the other assets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAssetPath } from '../../server/src/assets/signing.ts';
import type { AppContext } from '../../server/src/context.ts';
import { drawtextFont, makeVideo } from '../support/media.ts';
import { seedCompletedVideo, teamOf } from '../support/seed.ts';
import { analyseFile } from '../support/analyse-file.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const CAPTIONS = [
  { startMs: 500, endMs: 2000, text: 'Welcome to the market' },
  { startMs: 3500, endMs: 5000, text: 'Lighthouse keepers wave goodbye' },
];

interface Detail {
  title: string;
  captions_track: { path: string; language: string } | null;
  captions_note: string | null;
  downloads: Record<'captions_vtt' | 'captions_srt' | 'scenes_csv' | 'analysis_json', string>;
  output_data: {
    scenes: { index: number; start_time: string; screen_text: string; objects: string[] }[];
    captions: { start_time: string; text: string }[];
  };
}

let server: TestServer;
let ctx: AppContext;
let token: string;
let otherToken: string;
let teamId: string;
let otherTeamId: string;
let videoId: string;
let detail: Detail;

async function analyse(file: string, ownerId: string): Promise<string> {
  return analyseFile(ctx, {
    teamId,
    ownerId,
    file,
    filename: 'market_day.mp4',
    language: 'en',
    timeoutMs: 150_000,
  });
}

beforeAll(async () => {
  server = await startTestServer();
  ctx = server.ctx;
  const a = await server.createUser({ email: 'a@example.com', password: 'password1', team: 'A' });
  const b = await server.createUser({ email: 'b@example.com', password: 'password1', team: 'B' });
  teamId = await teamOf(ctx, a);
  otherTeamId = await teamOf(ctx, b);
  token = await server.login('a@example.com', 'password1');
  otherToken = await server.login('b@example.com', 'password1');
  const font = drawtextFont();
  const video = await makeVideo({
    width: 640,
    height: 360,
    segments: [
      {
        source: 'testsrc2',
        seconds: 3,
        extra:
          `drawtext=fontfile=${font}:text='ORCHARD MARKET':fontsize=44:fontcolor=white:` +
          'borderw=3:bordercolor=black:x=(w-tw)/2:y=h*0.62',
      },
      { source: 'smptebars', seconds: 3, transition: { kind: 'cut' } },
    ],
    subtitles: CAPTIONS,
    silentAudio: true,
  });
  videoId = await analyse(video.file, a);
  detail = (await server.call('GET', `/api/videos/${videoId}`, { token })).body as Detail;
}, 200_000);

afterAll(async () => {
  await server?.close();
});

const asset = (p: string) => fetch(`${server.url}/assets/data/output/${p}`);

describe('the detail of an analysed video', () => {
  it('has a captions track served as text/vtt with its cues', async () => {
    expect(detail.captions_track).toMatchObject({ language: 'en' });
    expect(detail.captions_note).toBeNull();
    const res = await asset(detail.captions_track!.path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    const vtt = await res.text();
    expect(vtt.startsWith('WEBVTT')).toBe(true);
    expect(vtt).toContain('00:00:03.500 --> 00:00:05.000\nLighthouse keepers wave goodbye');
  });

  it('gives each scene the text read on screen and the objects seen', () => {
    const [first, second] = detail.output_data.scenes;
    expect(first!.screen_text).toContain('ORCHARD MARKET');
    expect(second!.screen_text).toBe('');
    for (const scene of detail.output_data.scenes) expect(Array.isArray(scene.objects)).toBe(true);
  });

  it('says why a video has no captions', async () => {
    const seeded = await seedCompletedVideo(ctx, { teamId, scenes: [{ description: 'x' }] });
    await ctx.db.query(
      `UPDATE videos SET output_data = output_data || '{"captions_source": "none"}' WHERE id = $1`,
      [seeded.id],
    );
    const res = await server.call('GET', `/api/videos/${seeded.id}`, { token });
    // The local provider does not transcribe: nothing was embedded.
    expect(res.body).toMatchObject({
      captions_track: null,
      captions_note: 'none_embedded',
      downloads: { captions_vtt: null, captions_srt: null },
    });
    // No captions: their download is not there even with a valid signature.
    const key = `output/${seeded.id}/downloads/captions.srt`;
    expect((await asset(signAssetPath(ctx, key, teamId)!)).status).toBe(404);
  });
});

describe('downloads', () => {
  const title = () => encodeURIComponent(detail.title);

  it('gives the captions as SubRip named after the video, with SRT timecodes', async () => {
    const res = await asset(detail.downloads.captions_srt);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-subrip/);
    expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''${title()}.srt`);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    const srt = await res.text();
    expect(srt).toContain('1\r\n00:00:00,500 --> 00:00:02,000\r\nWelcome to the market\r\n');
    expect(srt).toContain('2\r\n00:00:03,500 --> 00:00:05,000\r\nLighthouse keepers wave goodbye');
  });

  it('gives the captions as WebVTT', async () => {
    const res = await asset(detail.downloads.captions_vtt);
    expect(res.headers.get('content-disposition')).toContain(`${title()}.vtt`);
    expect(await res.text()).toContain('00:00:00.500 --> 00:00:02.000\nWelcome to the market');
  });

  it('gives the scene list as CSV that reads back one row per scene', async () => {
    const res = await asset(detail.downloads.scenes_csv);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain(`${title()}.csv`);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).split('\r\n');
    expect(lines[0]).toBe('index,start,end,description,people,objects,screen_text');
    // Two scenes; each row starts with its index and times (descriptions may hold quoted lines).
    const rows = lines.filter((l) => /^\d+,\d\d:\d\d:\d\d\.\d{3},/.test(l));
    expect(rows.map((r) => r.split(',').slice(0, 2))).toEqual([
      ['0', '00:00:00.000'],
      ['1', detail.output_data.scenes[1]!.start_time],
    ]);
    expect(rows[0]).toContain('ORCHARD MARKET');
  });

  it('gives the whole analysis as JSON without signed links', async () => {
    const res = await asset(detail.downloads.analysis_json);
    expect(res.headers.get('content-disposition')).toContain(`${title()}.json`);
    const text = await res.text();
    expect(text).not.toContain('sig=');
    const json = JSON.parse(text) as Record<string, unknown> & {
      scenes: { screen_text: string }[];
      captions: { language: string; cues: { text: string }[] };
    };
    expect(json).toMatchObject({ id: videoId, title: detail.title });
    expect(json.scenes).toHaveLength(detail.output_data.scenes.length);
    expect(json.scenes[0]!.screen_text).toContain('ORCHARD MARKET');
    expect(json.captions.language).toBe('en');
    expect(json.captions.cues.map((c) => c.text)).toEqual(CAPTIONS.map((c) => c.text));
  });

  it('keep to the team and the signature as the other assets do', async () => {
    // Another team's user has no way to the detail, so none to its signed paths.
    expect((await server.call('GET', `/api/videos/${videoId}`, { token: otherToken })).status).toBe(
      404,
    );
    // A path signed for another team does not open this team's download.
    const key = `output/${videoId}/downloads/scenes.csv`;
    expect((await asset(signAssetPath(ctx, key, otherTeamId)!)).status).toBe(403);
    // A tampered signature, and a path to another of the video's downloads, fail.
    const path = detail.downloads.scenes_csv;
    const sig = new URL(path, 'http://x').searchParams.get('sig')!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    expect((await asset(path.replace(sig, flipped))).status).toBe(403);
    expect((await asset(path.replace('scenes.csv', 'analysis.json'))).status).toBe(403);
    // An expired one fails too.
    const exp = Number(new URL(path, 'http://x').searchParams.get('exp'));
    const realNow = ctx.now;
    try {
      ctx.now = () => exp * 1000;
      const res = await asset(path);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { detail: string }).detail).toBe('Link expired');
    } finally {
      ctx.now = realNow;
    }
  });
});

describe('why a search hit matched', () => {
  interface Hit {
    id: string;
    scene_index?: number;
    scene_start_time?: string;
    match: {
      terms: string[];
      keyword: number | null;
      meaning: number | null;
      screen_text: string[];
    };
  }
  const search = async (kind: 'videos' | 'scenes', query: Record<string, string>) => {
    const qs = new URLSearchParams(query).toString();
    const res = await server.call('GET', `/api/videos/find-similar-${kind}?${qs}`, { token });
    expect(res.status).toBe(200);
    return res.body.items as Hit[];
  };

  it('shows the caption words a scene hit matched, with the shares of its score', async () => {
    for (const searchMethod of ['hybrid', 'sparse', 'dense']) {
      const [hit] = await search('scenes', { description: 'lighthouse keepers', searchMethod });
      expect(hit, searchMethod).toMatchObject({ id: videoId, scene_index: 1 });
      expect(hit!.match.terms, searchMethod).toEqual(['Lighthouse', 'keepers']);
      expect(hit!.match.keyword! + hit!.match.meaning!).toBeCloseTo(1, 6);
      if (searchMethod === 'sparse') expect(hit!.match.keyword).toBe(1);
      if (searchMethod === 'dense') expect(hit!.match.meaning).toBe(1);
      if (searchMethod === 'hybrid') expect(hit!.match.keyword).toBeGreaterThan(0);
    }
    // The hit says where its moment starts: the scene's own start in the detail.
    const [hit] = await search('scenes', { description: 'lighthouse keepers' });
    expect(hit!.scene_start_time).toBe(detail.output_data.scenes[1]!.start_time);
    expect(hit!.scene_start_time).not.toBe('00:00:00.000');
    // A video hit finds them in the video's captions.
    const [video] = await search('videos', { description: 'lighthouse keepers' });
    expect(video!.id).toBe(videoId);
    expect(video!.match.terms).toEqual(expect.arrayContaining(['Lighthouse', 'keepers']));
  });

  it('shows the on-screen text a hit matched, for scenes and videos', async () => {
    const [scene] = await search('scenes', { description: 'orchard' });
    expect(scene).toMatchObject({ id: videoId, scene_index: 0 });
    expect(scene!.match.terms).toContain('ORCHARD');
    expect(scene!.match.screen_text).toEqual([expect.stringContaining('ORCHARD MARKET')]);
    const [video] = await search('videos', { description: 'orchard' });
    expect(video!.id).toBe(videoId);
    expect(video!.match.screen_text).toEqual([expect.stringContaining('ORCHARD MARKET')]);
  });

  it('has no words or shares to show for "similar to this video"', async () => {
    const seeded = await seedCompletedVideo(ctx, {
      teamId,
      title: 'Market morning',
      scenes: [{ description: 'A market by the lighthouse.' }],
    });
    const items = await search('videos', { videoId: seeded.id });
    expect(items.length).toBeGreaterThan(0);
    for (const hit of items) {
      expect(hit.match).toEqual({
        terms: [],
        keyword: null,
        meaning: null,
        people: [],
        objects: [],
        screen_text: [],
      });
    }
  });
});
