// Embeddings from a model whose dimension is not 384 (and that ignores `dimensions`) are
// reduced by a fixed Gaussian random projection (Johnson–Lindenstrauss: cosine similarities
// are kept approximately), seeded by the source dimension so every process and every restart
// projects identically, then L2-normalised.
import { EMBEDDING_DIM } from '../provider.ts';
import { l2Normalize } from '../local/lexical-embedding.ts';
import { mulberry32 } from '../../lib/seeded-random.ts';

const matrices = new Map<number, Float32Array>();

function matrixFor(sourceDim: number): Float32Array {
  let m = matrices.get(sourceDim);
  if (!m) {
    const rand = mulberry32(0x5eed ^ sourceDim);
    m = new Float32Array(EMBEDDING_DIM * sourceDim);
    for (let i = 0; i < m.length; i += 2) {
      // Box–Muller: two standard normal numbers from two uniform ones.
      const u = Math.max(rand(), 1e-12);
      const v = rand();
      const r = Math.sqrt(-2 * Math.log(u));
      m[i] = r * Math.cos(2 * Math.PI * v);
      if (i + 1 < m.length) m[i + 1] = r * Math.sin(2 * Math.PI * v);
    }
    matrices.set(sourceDim, m);
  }
  return m;
}

export function toEmbeddingDim(v: readonly number[]): number[] {
  if (v.length === EMBEDDING_DIM) return l2Normalize([...v]);
  const m = matrixFor(v.length);
  const out = new Array<number>(EMBEDDING_DIM).fill(0);
  for (let r = 0; r < EMBEDDING_DIM; r++) {
    let sum = 0;
    const row = r * v.length;
    for (let c = 0; c < v.length; c++) sum += m[row + c]! * v[c]!;
    out[r] = sum;
  }
  return l2Normalize(out);
}
