/**
 * Wraps any embedder so that a text is embedded once per model: looked up by (model, SHA-256 of
 * the text) first, only the misses go to the inner embedder, and what it returns is kept. A call
 * claims its texts before it looks them up, so concurrent calls asking for the same text wait for
 * the first one instead of embedding it again.
 */
import type { Embedder, Embedding } from './embedder.port';
import { type EmbeddingCacheStore, textHash } from './embedding-cache.port';
import { EmbeddingDimensionMismatchError, EmbeddingFailedError } from './errors';

interface Claim {
  text: string;
  promise: Promise<Embedding>;
  resolve(embedding: Embedding): void;
  reject(error: unknown): void;
}

function claim(text: string): Claim {
  let resolve!: (embedding: Embedding) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<Embedding>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { text, promise, resolve, reject };
}

export class CachedEmbedder implements Embedder {
  readonly model: string;
  readonly dimensions: number;
  /** Texts (by hash) some call is looking up or embedding right now. */
  private readonly inFlight = new Map<string, Promise<Embedding>>();

  constructor(
    private readonly inner: Embedder,
    private readonly store: EmbeddingCacheStore,
  ) {
    this.model = inner.model;
    this.dimensions = inner.dimensions;
  }

  async embed(texts: string[]): Promise<Embedding[]> {
    const hashes = texts.map((text) => textHash(text));
    const waiting = new Map<string, Promise<Embedding>>();
    const claims = new Map<string, Claim>();
    hashes.forEach((hash, i) => {
      if (waiting.has(hash)) return;
      const running = this.inFlight.get(hash);
      if (running) {
        waiting.set(hash, running);
        return;
      }
      const own = claim(texts[i]);
      claims.set(hash, own);
      waiting.set(hash, own.promise);
      this.inFlight.set(hash, own.promise);
    });
    if (claims.size > 0) {
      try {
        await this.fill(claims);
      } catch (error) {
        for (const own of claims.values()) own.reject(error);
      } finally {
        for (const hash of claims.keys()) this.inFlight.delete(hash);
      }
    }
    const embeddings = new Map<string, Embedding>();
    await Promise.all([...waiting].map(async ([hash, promise]) => embeddings.set(hash, await promise)));
    return hashes.map((hash) => embeddings.get(hash) as Embedding);
  }

  /** Resolves every claim: from the store, else from the inner embedder (then stored). */
  private async fill(claims: Map<string, Claim>): Promise<void> {
    const found = await this.store.get(this.model, this.dimensions, [...claims.keys()]);
    const misses: [string, Claim][] = [];
    for (const [hash, own] of claims) {
      const cached = found.get(hash);
      if (cached) own.resolve(cached);
      else misses.push([hash, own]);
    }
    if (misses.length === 0) return;
    const embeddings = await this.inner.embed(misses.map(([, own]) => own.text));
    if (embeddings.length !== misses.length) {
      throw new EmbeddingFailedError(this.model, `${embeddings.length} embeddings came back for ${misses.length} texts`);
    }
    const wrong = embeddings.find((e) => e.length !== this.dimensions);
    if (wrong) throw new EmbeddingDimensionMismatchError(this.model, this.dimensions, wrong.length);
    await this.store.put(
      this.model,
      misses.map(([hash], i) => ({ textHash: hash, embedding: embeddings[i] })),
    );
    misses.forEach(([, own], i) => own.resolve(embeddings[i]));
  }
}
