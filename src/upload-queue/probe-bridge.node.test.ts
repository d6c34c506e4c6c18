// @vitest-environment node
// video_date as the create call gets it (issue 3): the file's creation metadata when it has some,
// else its last-modified time, as a LOCAL date-time with milliseconds. Real generated videos go
// through the page's bridge and comlink to the worker's own code, run in this thread.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { expose } from 'comlink';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeClip, type ClipSpec } from '../../tests/support/container-clips.ts';
import { probeFile } from '../workers/probe-file.ts';
import { probeVideo, terminateProbeWorker } from './probe-bridge.ts';

vi.mock('mediainfo.js/MediaInfoModule.wasm?url', () => ({
  default: createRequire(import.meta.url).resolve('mediainfo.js/MediaInfoModule.wasm'),
}));

/** The probe worker without a thread: its api exposed on one end of a MessageChannel. */
class InThreadProbeWorker {
  private readonly channel = new MessageChannel();
  constructor() {
    expose({ probe: probeFile }, this.channel.port2);
    this.channel.port1.start();
  }
  postMessage(message: unknown, transfer: Transferable[] = []): void {
    this.channel.port1.postMessage(message, transfer);
  }
  addEventListener(type: string, listener: EventListener): void {
    this.channel.port1.addEventListener(type, listener);
  }
  removeEventListener(type: string, listener: EventListener): void {
    this.channel.port1.removeEventListener(type, listener);
  }
  terminate(): void {
    this.channel.port1.close();
    this.channel.port2.close();
  }
}

const LAST_MODIFIED = Date.UTC(2024, 0, 31, 20, 15, 30, 123);

async function probeClip(spec: Omit<ClipSpec, 'seconds'>) {
  const path = await makeClip({ seconds: 4, ...spec });
  const file = new File([fs.readFileSync(path)], `clip.${spec.format}`, {
    lastModified: LAST_MODIFIED,
  });
  return probeVideo(file);
}

beforeAll(() => {
  vi.stubGlobal('Worker', InThreadProbeWorker);
  vi.stubEnv('TZ', 'Asia/Tokyo'); // UTC+9: a UTC reading shows another hour, often another day
});
afterEach(() => terminateProbeWorker());
afterAll(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe('probeVideo: duration and video_date', { timeout: 60_000 }, () => {
  it('dates the video by its creation metadata, in local time with milliseconds', async () => {
    const probe = await probeClip({
      format: 'mp4',
      metadata: { creation_time: '2024-03-04T20:06:07Z' },
    });
    expect(probe.durationSeconds).toBeCloseTo(4, 1);
    expect(probe.videoDate).toBe('2024-03-05T05:06:07.000');
  });

  it('dates a video without creation metadata by its last-modified time', async () => {
    const probe = await probeClip({ format: 'mov', faststart: true });
    expect(probe.durationSeconds).toBeCloseTo(4, 1);
    expect(probe.videoDate).toBe('2024-02-01T05:15:30.123');
  });

  it("dates a phone video by its QuickTime creation date in the viewer's zone", async () => {
    const spec: Omit<ClipSpec, 'seconds'> = {
      format: 'mov',
      quicktimeKeys: true,
      metadata: {
        'com.apple.quicktime.creationdate': '2023-05-06T07:08:09+0900',
        creation_time: '2023-06-01T00:00:00Z',
      },
    };
    expect((await probeClip(spec)).videoDate).toBe('2023-05-06T07:08:09.000');
    vi.stubEnv('TZ', 'America/New_York');
    try {
      expect((await probeClip(spec)).videoDate).toBe('2023-05-05T18:08:09.000');
    } finally {
      vi.stubEnv('TZ', 'Asia/Tokyo');
    }
  });

  it('dates a file read by mediainfo.js by its metadata too', async () => {
    const probe = await probeClip({
      format: 'mp4',
      fragmented: true,
      metadata: { creation_time: '2024-03-04T20:06:07Z' },
    });
    expect(probe.durationSeconds).toBeCloseTo(4, 1);
    expect(probe.videoDate).toBe('2024-03-05T05:06:07.000');
  });
});
