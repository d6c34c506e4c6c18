// The hostile files of issue 28 that bench/hostile.ts sends (made by tests/support/hostile-files.ts),
// each with the people pictures sent before its video, and the plain clip measured as the baseline.
import fs from 'node:fs';
import { makeClip } from '../tests/support/container-clips.ts';
import {
  angleFloodVideo,
  declaredSizeSvg,
  oversizeVideo,
  pngWithTransportStream,
  quoteSvg,
} from '../tests/support/hostile-files.ts';

export type Person = { name: string; body: Buffer | string; filename: string };

export interface Scenario {
  name: string;
  /** People pictures sent before the video (their upload is measured with it). */
  people?: () => Promise<Person[]>;
  video: () => Promise<{ bytes: Buffer; filename: string }>;
}

const clip = async (): Promise<{ bytes: Buffer; filename: string }> => ({
  bytes: fs.readFileSync(await makeClip({ seconds: 3, format: 'mp4', faststart: true })),
  filename: 'clip.mp4',
});

export const SCENARIOS: Scenario[] = [
  { name: 'plain 3 s clip (baseline)', video: clip },
  {
    name: "Matroska .mov, ASS lines of 150,000 '<'",
    video: async () => ({ bytes: fs.readFileSync(await angleFloodVideo()), filename: 'a.mov' }),
  },
  {
    name: "20 people SVGs of 9 MB of ' (+ clip)",
    people: async () => {
      const svg = quoteSvg(9 * 1024 * 1024);
      return Array.from({ length: 20 }, (_, i) => ({
        name: `Q${i}`,
        body: svg,
        filename: `${i}.svg`,
      }));
    },
    video: clip,
  },
  {
    name: '4 people SVGs declaring 16,000 px, blurred (+ clip)',
    people: async () =>
      Array.from({ length: 4 }, (_, i) => ({
        name: `S${i}`,
        body: declaredSizeSvg(16_000),
        filename: `${i}.svg`,
      })),
    video: clip,
  },
  {
    name: 'people PNG carrying an MPEG-TS stream (+ clip)',
    people: async () => [{ name: 'P', body: await pngWithTransportStream(), filename: 'p.png' }],
    video: clip,
  },
  {
    name: '16,000 x 16,000 px video (MJPEG in Matroska)',
    video: async () => ({ bytes: fs.readFileSync(await oversizeVideo()), filename: 'big.mov' }),
  },
];
