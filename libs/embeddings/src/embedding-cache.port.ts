/**
 * Where embeddings already computed are kept, keyed by (model, SHA-256 of the exact text
 * embedded). An embedding is a pure function of those two, so the cache is shared by every
 * tenant (it hands out vectors only to a caller that already holds the text) and may be
 * emptied at any time.
 */
import { createHash } from 'node:crypto';
import type { Embedding } from './embedder.port';

export interface CachedEmbedding {
  /** `textHash(text)` of the text that was embedded. */
  textHash: string;
  embedding: Embedding;
}

export interface EmbeddingCacheStore {
  /** The cached embeddings among `textHashes`, by hash; an entry of another length than `dimensions` is a miss. */
  get(model: string, dimensions: number, textHashes: readonly string[]): Promise<Map<string, Embedding>>;
  /** Keeps these embeddings; one already there for the same key is replaced only if its length differs. */
  put(model: string, entries: readonly CachedEmbedding[]): Promise<void>;
  /** Drops the entries of these texts, for every model (an erasure: a vector of a text says something of it). */
  forget(textHashes: readonly string[]): Promise<void>;
}

/** Hex SHA-256 of the text's UTF-8 bytes, exactly as given (no trimming, no normalisation). */
export function textHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
