/** The cache in process memory, least recently used out first: for embedded use and tests. */
import type { Embedding } from './embedder.port';
import type { CachedEmbedding, EmbeddingCacheStore } from './embedding-cache.port';

export interface InMemoryEmbeddingCacheOptions {
  /** Most embeddings kept; default 10 000 (about 20 MB at 512 dimensions). */
  maxEntries?: number;
}

export class InMemoryEmbeddingCache implements EmbeddingCacheStore {
  private readonly maxEntries: number;
  // A Map iterates in insertion order: re-inserting on a hit makes the first key the least recently used.
  private readonly entries = new Map<string, Embedding>();

  constructor(options: InMemoryEmbeddingCacheOptions = {}) {
    this.maxEntries = Math.max(1, options.maxEntries ?? 10_000);
  }

  get size(): number {
    return this.entries.size;
  }

  async get(model: string, dimensions: number, textHashes: readonly string[]): Promise<Map<string, Embedding>> {
    const found = new Map<string, Embedding>();
    for (const hash of textHashes) {
      const key = `${model}\u0000${hash}`;
      const embedding = this.entries.get(key);
      if (!embedding || embedding.length !== dimensions) continue;
      this.entries.delete(key);
      this.entries.set(key, embedding);
      found.set(hash, embedding);
    }
    return found;
  }

  async put(model: string, entries: readonly CachedEmbedding[]): Promise<void> {
    for (const { textHash, embedding } of entries) {
      const key = `${model}\u0000${textHash}`;
      const existing = this.entries.get(key);
      if (existing && existing.length === embedding.length) continue;
      this.entries.delete(key);
      this.entries.set(key, embedding);
    }
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(key);
    }
  }

  async forget(textHashes: readonly string[]): Promise<void> {
    const gone = new Set(textHashes);
    for (const key of [...this.entries.keys()]) if (gone.has(key.slice(key.indexOf('\u0000') + 1))) this.entries.delete(key);
  }
}
