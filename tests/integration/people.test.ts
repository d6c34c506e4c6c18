// People images of a video: pairing, types by magic bytes and extension, the 10 MB limit, the
// SVG sanitiser, and replace semantics.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegImage, pngImage } from '../support/images.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createVideo, signInTwoTeams } from '../support/videos.ts';

let server: TestServer;
let token: string;
let otherToken: string;

const PNG = pngImage(32, 24);
let JPEG: Buffer;

beforeAll(async () => {
  JPEG = await jpegImage();
  server = await startTestServer({ WORKER: 'off' });
  ({ token, otherToken } = await signInTwoTeams(server));
});
afterAll(() => server.close());

async function newVideo(): Promise<string> {
  return (await createVideo(server, token, { filename: 'a.mp4' })).id;
}

type Person = [string, Buffer | string, string];

async function upload(id: string, people: Person[], opts: { names?: string[]; t?: string } = {}) {
  const form = new FormData();
  for (const name of opts.names ?? people.map((p) => p[0])) form.append('names[]', name);
  for (const [, body, filename] of people) form.append('images[]', new Blob([body]), filename);
  const res = await fetch(`${server.url}/api/videos/${id}/upload-people-images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${opts.t ?? token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const peopleDir = (id: string) => path.join(server.dataDir, 'files', 'input', id, 'people');

async function rows(id: string) {
  return server.ctx.db.query(
    'SELECT position, name, image_key FROM video_people WHERE video_id = $1 ORDER BY position',
    [id],
  );
}

describe('POST /api/videos/:id/upload-people-images', () => {
  it('stores each person and replaces the previous set', async () => {
    const id = await newVideo();
    const first = await upload(id, [
      ['Ann', PNG, 'ann.png'],
      ['Bob', JPEG, 'bob.jpeg'],
    ]);
    expect(first.status).toBe(200);
    expect(await rows(id)).toEqual([
      { position: 1, name: 'Ann', image_key: `input/${id}/people/1.png` },
      { position: 2, name: 'Bob', image_key: `input/${id}/people/2.jpg` },
    ]);
    expect(fs.readFileSync(path.join(peopleDir(id), '1.png')).equals(PNG)).toBe(true);
    const second = await upload(id, [['Cy', JPEG, 'cy.jpg']]);
    expect(second.status).toBe(200);
    expect(await rows(id)).toEqual([
      { position: 1, name: 'Cy', image_key: `input/${id}/people/1.jpg` },
    ]);
    expect(fs.readdirSync(peopleDir(id))).toEqual(['1.jpg']);
  });

  it('refuses a count mismatch, a wrong type, a lying extension and a too-big file', async () => {
    const id = await newVideo();
    const mismatch = await upload(id, [['Ann', PNG, 'ann.png']], { names: ['Ann', 'Bob'] });
    expect(mismatch.status).toBe(422);
    expect(JSON.stringify(mismatch.body)).toContain(
      'Please add both the name and the image for this section.',
    );
    const gif = await upload(id, [['Ann', Buffer.from('GIF89a....'), 'ann.gif']]);
    expect(gif.status).toBe(422);
    const lying = await upload(id, [['Ann', PNG, 'ann.jpg']]);
    expect(lying.status).toBe(422);
    const big = Buffer.concat([JPEG, Buffer.alloc(10 * 1024 * 1024)]);
    const tooBig = await upload(id, [['Ann', big, 'ann.jpg']]);
    expect(tooBig.status).toBe(422);
    expect(JSON.stringify(tooBig.body)).toContain('File size must not exceed 10MB');
    const blank = await upload(id, [[' ', PNG, 'x.png']]);
    expect(blank.status).toBe(422);
    expect(await rows(id)).toEqual([]);
    const foreign = await upload(id, [['Ann', PNG, 'ann.png']], { t: otherToken });
    expect(foreign.status).toBe(404);
  });

  it('stores SVGs rebuilt from the allowlist, and refuses active content', async () => {
    const id = await newVideo();
    const drawing =
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">' +
      '<metadata>editor notes</metadata><circle r="4" style="x" stroke="url(#g)"/>' +
      '<use xlink:href="#c"/></svg>';
    const res = await upload(id, [['Ann', drawing, 'ann.svg']]);
    expect(res.status).toBe(200);
    expect(fs.readFileSync(path.join(peopleDir(id), '1.svg'), 'utf8')).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle r="4" stroke="url(#g)"/>' +
        '<use xlink:href="#c"/></svg>',
    );
    for (const evil of [
      '<svg onload="alert(1)"><rect/></svg>',
      '<svg><script>alert(2)</script></svg>',
      '<svg><a href="javascript:alert(3)"><rect/></a></svg>',
      '<svg><foreignObject><iframe src="https://evil.example"/></foreignObject></svg>',
      '<svg><image href="https://evil.example/p.png"/></svg>',
      '<!DOCTYPE svg [<!ENTITY x "y">]><svg>&x;</svg>',
    ]) {
      expect((await upload(id, [['Eve', evil, 'e.svg']])).status).toBe(422);
    }
    expect(fs.readdirSync(peopleDir(id))).toEqual(['1.svg']);
  });
});
