// The OCR engine: Tesseract (tesseract.js, WebAssembly in a worker thread) with the English and
// Japanese models that ship in the @tesseract.js-data npm packages. Nothing is downloaded: the
// engine's code comes from tesseract.js-core in node_modules and the models are read from a
// temporary folder of links to the packaged files (tesseract.js takes one folder for all
// languages); no cache is written. One engine serves a whole video and is closed after it.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';

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

export class OcrEngine {
  private constructor(
    private readonly worker: Worker,
    private readonly dir: string,
  ) {}

  /** Starts the worker thread and loads the models (about 2 s). */
  static async open(languages: OcrLanguages): Promise<OcrEngine> {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'va-ocr-'));
    try {
      for (const code of languages) {
        await fs.promises.symlink(modelFile(code), path.join(dir, `${code}.traineddata.gz`));
      }
      const worker = await createWorker(
        languages.join('+'),
        OEM.LSTM_ONLY,
        { langPath: dir, cachePath: dir, cacheMethod: 'none', gzip: true, workerPath: WORKER_PATH },
        INIT_CONFIG,
      );
      // The image holds lines stacked one under the other: a uniform block of text.
      await worker.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK });
      return new OcrEngine(worker, dir);
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
