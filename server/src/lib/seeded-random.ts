// One seeded pseudo-random generator for everything that must come out the same on every run:
// the embedding projection, and the generated data of tests and benches.

/** mulberry32: a small, fast, well-spread 32-bit PRNG; answers numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
