/** @factledger/embeddings — the embedder port, its adapters (offline USE Lite, OpenAI-compatible HTTP) and the embedding cache. */
export * from './embedder.port';
export * from './errors';
export * from './embedding-text';
export * from './use-lite-embedder';
export * from './openai-embedder';
export * from './embedding-cache.port';
export * from './in-memory-embedding-cache';
export * from './postgres-embedding-cache';
export * from './cached-embedder';
