/**
 * The seam between recall and whatever turns text into vectors. Adapters sit side by side in
 * this lib (the offline Universal Sentence Encoder Lite, an OpenAI-compatible HTTP service) and
 * decorators wrap any of them (the cache).
 */

/** One text's embedding. float32, like pgvector's `vector`, at half the memory of `number[]`. */
export type Embedding = Float32Array;

export interface Embedder {
  /** Names the vector space: two embeddings compare only when their `model` is equal (the cache keys on it). */
  readonly model: string;
  readonly dimensions: number;
  /** One embedding per text, in the order given; every one `dimensions` long. Batched by the adapter. */
  embed(texts: string[]): Promise<Embedding[]>;
}

/** The vector scaled to length 1 (all zeros stays all zeros): the dot product of two is their cosine. */
export function unitVector(v: ArrayLike<number>): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
  const out = Float32Array.from(v);
  if (norm > 0) for (let i = 0, f = 1 / Math.sqrt(norm); i < out.length; i++) out[i]! *= f;
  return out;
}

/** The dot product of two vectors of one length (RangeError otherwise). */
export function dotProduct(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError(`cannot compare vectors of ${a.length} and ${b.length} dimensions`);
  // Four sums side by side: recall's diversity takes some 190 of these per assembly.
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (const n = a.length - 3; i < n; i += 4) {
    s0 += a[i]! * b[i]!;
    s1 += a[i + 1]! * b[i + 1]!;
    s2 += a[i + 2]! * b[i + 2]!;
    s3 += a[i + 3]! * b[i + 3]!;
  }
  for (; i < a.length; i++) s0 += a[i]! * b[i]!;
  return s0 + s1 + (s2 + s3);
}

/** Cosine similarity in [-1, 1]; 0 when either vector is all zeros. */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError(`cannot compare vectors of ${a.length} and ${b.length} dimensions`);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    normA += a[i] * a[i];
    normB += b[i] * b[i];
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}
