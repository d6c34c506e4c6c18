// The OCR engine's worker thread (ocr-engine.ts gives its path to tesseract.js): tesseract.js 7's
// own Node worker script, but with the LSTM-only core. Its Node getCore compares the `lstmOnly`
// flag it is given (true) with OEM numbers, so it always loaded the core that carries the legacy
// engine too: 3.45 MB of WebAssembly against 2.86, about 20 MB more memory and 0.25 s more CPU
// per start here (docs/decisions/ocr.md). The models' configs name legacy
// parameters this core does not have, and it warns about each one at every start: those
// warnings are dropped, everything else it prints goes to stderr as before. Plain JavaScript:
// worker threads do not get the TypeScript loader.
import { createRequire } from 'node:module';
import path from 'node:path';
import { stderr } from 'node:process';
import { parentPort } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const tesseract = path.dirname(require.resolve('tesseract.js/package.json'));
const fromTesseract = (id) => require(require.resolve(id, { paths: [tesseract] }));
const worker = fromTesseract('tesseract.js/src/worker-script');
const gunzip = fromTesseract('tesseract.js/src/worker-script/node/gunzip');
const cache = fromTesseract('tesseract.js/src/worker-script/node/cache');

const UNKNOWN_PARAMETER = /^Warning: Parameter not found: /;

let core;
/** The core's module factory, with its stderr filtered. SIMD: every Node since 16.4 has it. */
async function getCore() {
  core ??= fromTesseract('tesseract.js-core/tesseract-core-simd-lstm');
  return (options) =>
    core({
      ...options,
      printErr: (message) => {
        if (!UNKNOWN_PARAMETER.test(message)) stderr.write(`${message}\n`);
      },
    });
}

parentPort.on('message', (packet) => {
  worker.dispatchHandlers(packet, (obj) => parentPort.postMessage(obj));
});

worker.setAdapter({ getCore, gunzip, fetch: globalThis.fetch, ...cache });
