/**
 * Wires recall from settings: the embedder (offline USE Lite or an OpenAI-compatible service,
 * behind the PostgreSQL embedding cache), the indexer, the assembler, and a background loop that
 * keeps the index caught up and drops traces past their retention period.
 */
import type { Clock } from '@factledger/domain';
import { CachedEmbedder, type Embedder, OpenAiEmbedder, PostgresEmbeddingCache, UseLiteEmbedder } from '@factledger/embeddings';
import { BackgroundLoop, type ProjectionRunner } from '@factledger/projections';
import type { Database } from '@factledger/store';
import { Recall } from './recall';
import { RecallIndexer } from './recall-indexer';
import { O200kTokenCounter } from './token-counter';
import { parseRecallTuning } from './recall-tuning';

export interface RecallSettings {
  embeddings: 'use-lite' | 'openai';
  embeddingsUrl?: string;
  embeddingsModel?: string;
  embeddingsDimensions?: number;
  embeddingsApiKey?: string;
  addressTerms: string[];
  traceRetentionDays: number;
  indexIntervalMs: number;
  /** Recall's tuning as JSON (FACTLEDGER_RECALL; see recall-tuning.ts); defaults when absent. */
  recallTuning?: string | object;
}

export interface RecallHandle {
  recall: Recall;
  indexer: RecallIndexer;
  embedder: Embedder;
  /** Starts the background loop (index catch-up every `indexIntervalMs`, trace retention hourly); `onError` also hears of traces not stored. */
  start(onError?: (error: unknown) => void): void;
  stop(): Promise<void>;
}

export function embedderFrom(settings: RecallSettings): Embedder {
  if (settings.embeddings === 'openai') {
    return new OpenAiEmbedder({
      baseUrl: settings.embeddingsUrl!,
      model: settings.embeddingsModel!,
      dimensions: settings.embeddingsDimensions!,
      apiKey: settings.embeddingsApiKey,
    });
  }
  return new UseLiteEmbedder();
}

/** Recall over `database`: its retrievers on `database.search`, everything else on `database.db`. */
export function recallOn(database: Pick<Database, 'db' | 'search'>, facts: ProjectionRunner, clock: Clock, settings: RecallSettings, embedder: Embedder = embedderFrom(settings)): RecallHandle {
  const { db, search } = database;
  const cached = new CachedEmbedder(embedder, new PostgresEmbeddingCache(db));
  const indexer = new RecallIndexer(db, cached, facts);
  const tuning = parseRecallTuning(settings.recallTuning);
  const recall = new Recall(db, { embedder: cached, facts, indexer, tokens: new O200kTokenCounter(), clock, search }, { ...tuning, addressTerms: settings.addressTerms });
  let lastPurge = 0;
  const loop = new BackgroundLoop(async () => {
    await indexer.catchUp();
    if (Date.now() - lastPurge > 3_600_000) {
      lastPurge = Date.now();
      await recall.purgeTraces(new Date(clock.now().getTime() - settings.traceRetentionDays * 86_400_000));
    }
  });
  return {
    recall,
    indexer,
    embedder: cached,
    start(onError = () => undefined) {
      recall.traces.onError = onError;
      loop.start(settings.indexIntervalMs, onError);
    },
    stop: async () => {
      await loop.stop();
      await recall.traces.flush();
    },
  };
}
