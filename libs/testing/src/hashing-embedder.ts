/**
 * A deterministic bag-of-words embedder by feature hashing: no model, no I/O, microseconds a
 * text. Texts that share words come out similar, nothing more. For tests of the read path that
 * should not wait for a real model, and as a stand-in for a remote model in protocol tests.
 */
import type { Embedder, Embedding } from '@factledger/embeddings';

/** 32-bit FNV-1a over UTF-16 code units. */
function fnv1a(token: string, seed: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < token.length; i++) {
    h ^= token.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class HashingEmbedder implements Embedder {
  readonly model: string;

  constructor(readonly dimensions = 256) {
    if (!Number.isInteger(dimensions) || dimensions < 1) throw new RangeError(`dimensions must be a positive integer, got ${dimensions}`);
    this.model = `hashing-bow-${dimensions}`;
  }

  async embed(texts: string[]): Promise<Embedding[]> {
    return texts.map((text) => this.embedOne(text));
  }

  private embedOne(text: string): Embedding {
    const vector = new Float32Array(this.dimensions);
    for (const token of text
      .toLowerCase()
      .normalize('NFC')
      .match(/[\p{L}\p{N}]+/gu) ?? []) {
      const h = fnv1a(token, 0);
      vector[h % this.dimensions] += fnv1a(token, 1) & 1 ? 1 : -1;
    }
    let norm = 0;
    for (const x of vector) norm += x * x;
    if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] /= Math.sqrt(norm);
    return vector;
  }
}
