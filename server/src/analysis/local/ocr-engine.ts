// The OCR engine: Tesseract (tesseract.js, WebAssembly in a worker thread) with the English and
// Japanese models that ship in the @tesseract.js-data npm packages. Nothing is downloaded: the
// engine's code comes from tesseract.js-core in node_modules and the models are read from a
// temporary folder of links to the packaged files (tesseract.js takes one folder for all
// languages); no cache is written. One engine serves a whole video; between videos it is kept
// for the next one (its start costs about 2 s of CPU) until MODELS_IDLE_UNLOAD_S passes without
// any, then closed: its thread ends and its memory goes with it (perception/thread-idle.ts).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'tesseract.js';
import { IdleUnload } from '../../perception/thread-idle.ts';

const require = createRequire(import.meta.url);

/** Models in the order the engine tries them: the first is preferred for every word. */
export type OcrLanguages = readonly ('eng' | 'jpn')[];

export interface OcrWord {
  text: string;
  /** 0–100, the engine's confidence in the word. */
  confidence: number;
  /** Vertical centre of the word in the image read, px. */
  centerY: number;
  x0: number;
}

/** The LSTM models (integer "best"): smaller and more accurate than the legacy ones. */
const modelFile = (code: string): string =>
  require.resolve(`@tesseract.js-data/${code}/4.0.0_best_int/${code}.traineddata.gz`);

/** One frame's lines take well under a second; this long means the engine is stuck. */
const READ_TIMEOUT_MS = 60_000;

/** The engine's thread: tesseract.js's worker script with the LSTM-only core (see the file). */
const WORKER_PATH = fileURLToPath(new URL('./ocr-worker.mjs', import.meta.url));

/** The Japanese model asks for a vertical-text companion that is not shipped; do not look. */
const INIT_CONFIG = 'tessedit_load_sublangs ~jpn_vert\n';

/** Engines no video uses now, kept for the next one. */
const spare: OcrEngine[] = [];
const idle = new IdleUnload(() => void closeSpareOcrEngines());

/** Closes the engines no video uses (idle, tests); the next video starts one. */
export async function closeSpareOcrEngines(): Promise<void> {
  idle.cancel();
  await Promise.all(spare.splice(0).map((e) => e.close().catch(() => undefined)));
}

/** How many engines are loaded with no video using them. */
export function spareOcrEngines(): number {
  return spare.length;
}

export class OcrEngine {
  /** Ends this engine's borrowing (borrow). */
  private release: (() => void) | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly dir: string,
    /** The languages it reads, as open took them, joined by +. */
    private readonly languages: string,
  ) {}

  /**
   * An engine for these languages for one video: a spare one when there is, else a new one
   * (open). Give it back with `giveBack` when the video's reading ends.
   */
  static async borrow(languages: OcrLanguages): Promise<OcrEngine> {
    const release = idle.hold();
    const i = spare.findIndex((e) => e.languages === languages.join('+'));
    if (i >= 0) {
      const engine = spare.splice(i, 1)[0]!;
      engine.release = release;
      return engine;
    }
    try {
      const engine = await OcrEngine.open(languages);
      engine.release = release;
      return engine;
    } catch (err) {
      release();
      throw err;
    }
  }

  /**
   * Ends a borrowing: the engine is kept for the next video, or closed when a read failed on it
   * (it may be stuck: a read that timed out goes on in its thread).
   */
  async giveBack(failed: boolean): Promise<void> {
    const release = this.release;
    this.release = undefined;
    try {
      if (failed) await this.close();
      else spare.push(this);
    } finally {
      release?.();
    }
  }

  /** Starts the worker thread and loads the models (about 2 s). */
  static async open(languages: OcrLanguages): Promise<OcrEngine> {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'va-ocr-'));
    try {
      for (const code of languages) {
        await fs.promises.symlink(modelFile(code), path.join(dir, `${code}.traineddata.gz`));
      }
      // tesseract.js is imported by the first video read, not at the server's start (issue 31).
      const { createWorker, OEM, PSM } = await import('tesseract.js');
      const worker = await createWorker(
        languages.join('+'),
        OEM.LSTM_ONLY,
        { langPath: dir, cachePath: dir, cacheMethod: 'none', gzip: true, workerPath: WORKER_PATH },
        INIT_CONFIG,
      );
      // The image holds lines stacked one under the other: a uniform block of text.
      await worker.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK });
      return new OcrEngine(worker, dir, languages.join('+'));
    } catch (err) {
      await fs.promises.rm(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /**
   * The words of an image (any format the engine decodes; PGM here), in reading order. A read
   * that takes longer than timeoutMs fails (the caller closes the engine, which ends it).
   */
  async read(image: Buffer, timeoutMs = READ_TIMEOUT_MS): Promise<OcrWord[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('OCR read timed out')), timeoutMs);
    });
    const { data } = await Promise.race([
      this.worker.recognize(image, {}, { blocks: true, text: false }),
      timeout,
    ]).finally(() => clearTimeout(timer));
    const words: OcrWord[] = [];
    for (const block of data.blocks ?? []) {
      for (const paragraph of block.paragraphs) {
        for (const line of paragraph.lines) {
          for (const w of line.words) {
            words.push({
              text: w.text,
              confidence: w.confidence,
              centerY: (w.bbox.y0 + w.bbox.y1) / 2,
              x0: w.bbox.x0,
            });
          }
        }
      }
    }
    return words;
  }

  /** Ends the worker thread (its memory goes with it) and removes the links. */
  async close(): Promise<void> {
    try {
      await this.worker.terminate();
    } finally {
      await fs.promises.rm(this.dir, { recursive: true, force: true });
    }
  }
}
