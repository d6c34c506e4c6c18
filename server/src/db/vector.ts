// pgvector's text form, '[0.1,0.2,...]', both ways: vectors are written and read as text on
// both databases (PGlite and node-postgres return the column as that string).

export function toVectorLiteral(v: readonly number[]): string {
  return `[${v.join(',')}]`;
}

export function parseVector(text: string): number[] {
  return JSON.parse(text) as number[];
}
