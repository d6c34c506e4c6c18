// A real HTTP server speaking the OpenAI protocol subset the openai provider uses: chat
// completions (JSON content built from the request's INPUT JSON), embeddings (deterministic
// vectors of a chosen dimension) and audio transcriptions (multipart in, verbose_json out).
// Tests can make the next N answers fail with a status, and read every request received.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body, or for multipart the form fields (file as its byte length). */
  body: Record<string, unknown>;
}

export interface FakeOpenAi {
  url: string;
  requests: RecordedRequest[];
  /** The next n requests answer this status (e.g. 500, 429). */
  failNext(n: number, status: number): void;
  /** Dimension of returned embeddings (default 384); dimensionsHonoured=false ignores the field. */
  embeddingDim: number;
  dimensionsHonoured: boolean;
  close(): Promise<void>;
}

function inputJson(messages: unknown): Record<string, unknown> {
  const texts: string[] = [];
  for (const m of (messages as { content: unknown }[]) ?? []) {
    if (typeof m.content === 'string') texts.push(m.content);
    else if (Array.isArray(m.content)) {
      for (const p of m.content as { type: string; text?: string }[]) {
        if (p.type === 'text' && p.text) texts.push(p.text);
      }
    }
  }
  const block = texts.find((t) => t.includes('INPUT JSON:'));
  return block ? (JSON.parse(block.split('INPUT JSON:\n')[1]!) as Record<string, unknown>) : {};
}

function chatAnswer(body: Record<string, unknown>): string {
  const input = inputJson(body.messages);
  const images = JSON.stringify(body.messages).split('data:image/').length - 1;
  if (typeof input.question === 'string') {
    // The report's answer: cite the scenes whose description shares a word with the question.
    const words = new Set(input.question.toLowerCase().match(/\p{L}{3,}/gu) ?? []);
    for (const w of ['the', 'and', 'are', 'was', 'where', 'what']) words.delete(w);
    const scenes = (
      (input.video as { scenes?: { index: number; description: string }[] }).scenes ?? []
    ).filter((s) =>
      (s.description.toLowerCase().match(/\p{L}{3,}/gu) ?? []).some((w) => words.has(w)),
    );
    return JSON.stringify({
      answer: `Model answer to <${input.question}>.\n\nSee ${scenes.map((s) => `scene ${s.index}`).join(', ')}.`,
      scenes: [...scenes.map((s) => s.index), 999],
    });
  }
  if (Array.isArray(input.scenes) && !('description' in ((input.scenes[0] as object) ?? {}))) {
    return JSON.stringify({
      scenes: (input.scenes as { index: number; captions?: string }[]).map((s) => ({
        index: s.index,
        description: `Model view of scene ${s.index} (${images} images)${s.captions ? `: ${s.captions}` : ''}`,
      })),
    });
  }
  // Wrapped in a code fence, as some local models do, to exercise the lenient parser.
  return (
    '```json\n' +
    JSON.stringify({
      title: `Model title for ${String(input.filename)}`,
      summary: `Model summary. About: ${String(input.uploader_about_this_video ?? '')}`,
      tags: ['harbour', 'fireworks'],
      social_tags: ['#festival', 'summer night'],
    }) +
    '\n```'
  );
}

function vectorFor(text: string, dim: number): number[] {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return Array.from({ length: dim }, (_, i) => Math.sin(h + i * 0.7));
}

function multipartFields(raw: Buffer, contentType: string): Record<string, unknown> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  const sep = `--${boundary?.[1] ?? boundary?.[2] ?? ''}`;
  const fields: Record<string, unknown> = {};
  for (const part of raw.toString('latin1').split(sep)) {
    const m = /name="([^"]+)"(?:; filename="[^"]*")?\r\n(?:[^\r\n]+\r\n)*\r\n([\s\S]*)\r\n$/.exec(
      part,
    );
    if (!m) continue;
    fields[m[1]!] = part.includes('filename=') ? Buffer.byteLength(m[2]!, 'latin1') : m[2];
  }
  return fields;
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  let failures: { left: number; status: number } = { left: 0, status: 500 };
  const state = { embeddingDim: 384, dimensionsHonoured: true };
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const type = req.headers['content-type'] ?? '';
      const body = type.startsWith('multipart/')
        ? multipartFields(raw, type)
        : (JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>);
      const path = (req.url ?? '').replace(/^\/v1/, '');
      requests.push({ path, headers: req.headers, body });
      const send = (status: number, payload: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (failures.left > 0) {
        failures.left--;
        return send(failures.status, { error: { message: 'injected failure' } });
      }
      if (path === '/chat/completions') {
        return send(200, {
          choices: [{ message: { role: 'assistant', content: chatAnswer(body) } }],
        });
      }
      if (path === '/embeddings') {
        const input = (Array.isArray(body.input) ? body.input : [body.input]) as string[];
        const dim =
          state.dimensionsHonoured && typeof body.dimensions === 'number'
            ? body.dimensions
            : state.embeddingDim;
        return send(200, {
          data: input.map((t, index) => ({ index, embedding: vectorFor(t, dim) })),
        });
      }
      if (path === '/audio/transcriptions') {
        return send(200, {
          text: 'hello harbour. fireworks tonight.',
          duration: 4,
          segments: [
            { start: 0, end: 1.5, text: ' hello harbour.' },
            { start: 1.5, end: 4, text: ' fireworks tonight.' },
          ],
        });
      }
      return send(404, { error: { message: `no route ${path}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    failNext(n, status) {
      failures = { left: n, status };
    },
    get embeddingDim() {
      return state.embeddingDim;
    },
    set embeddingDim(d: number) {
      state.embeddingDim = d;
    },
    get dimensionsHonoured() {
      return state.dimensionsHonoured;
    },
    set dimensionsHonoured(v: boolean) {
      state.dimensionsHonoured = v;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
