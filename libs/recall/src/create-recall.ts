/**
 * Wires recall from settings: the embedder (offline USE Lite or an OpenAI-compatible service,
 * behind the PostgreSQL embedding cache), the indexer, the assembler, and recall's two background
 * jobs: the indexer following the log, and the hourly drop of traces past their retention period.
 */
import type { Clock } from '@factledger/domain';
import { CachedEmbedder, type Embedder, OpenAiEmbedder, PostgresEmbeddingCache, UseLiteEmbedder } from '@factledger/embeddings';
import { LocalWorker, namedJobs, type ProjectionRunner, type ReplicaRouting, type WorkerJob } from '@factledger/projections';
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

/** The names of recall's background jobs (`RecallHandle.jobs`), in the order they are listed. */
export const RECALL_JOBS = ['recall-index', 'trace-retention'] as const;

export interface RecallHandle {
  recall: Recall;
  indexer: RecallIndexer;
  embedder: Embedder;
  /** Recall's readers of the log, as a worker runs them: the indexer (it follows the log) and trace retention (hourly, looked at once a pass). */
  jobs: WorkerJob[];
  /** Runs `jobs` in this process (LocalWorker, passes every `indexIntervalMs`); `onError` also hears of traces not stored. */
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

/**
 * Recall over `database`: its retrievers on `database.search`, everything else on `database.db`;
 * assemblies served by a standby where `replicas` finds one that has reached them (LedgerHandle.replicas).
 */
export function recallOn(
  database: Pick<Database, 'db' | 'search'>,
  facts: ProjectionRunner,
  clock: Clock,
  settings: RecallSettings,
  embedder: Embedder = embedderFrom(settings),
  replicas?: ReplicaRouting | null,
): RecallHandle {
  const { db, search } = database;
  const cached = new CachedEmbedder(embedder, new PostgresEmbeddingCache(db));
  const indexer = new RecallIndexer(db, cached, facts);
  const tuning = parseRecallTuning(settings.recallTuning);
  const recall = new Recall(
    db,
    { embedder: cached, facts, indexer, tokens: new O200kTokenCounter(), clock, search, replicas: replicas ?? undefined },
    { ...tuning, addressTerms: settings.addressTerms },
  );
  let purged = 0;
  const jobs = namedJobs(RECALL_JOBS, {
    'recall-index': { run: () => indexer.catchUp(), follow: (onError) => indexer.follow({ onError }) },
    'trace-retention': {
      run: async () => {
        if (Date.now() - purged < 3_600_000) return;
        purged = Date.now();
        await recall.purgeTraces(new Date(clock.now().getTime() - settings.traceRetentionDays * 86_400_000));
      },
    },
  });
  const workers = new LocalWorker(jobs);
  return {
    recall,
    indexer,
    embedder: cached,
    jobs,
    start(onError = () => undefined) {
      recall.traces.onError = onError;
      workers.start(settings.indexIntervalMs, onError);
    },
    stop: async () => {
      await workers.stop();
      await recall.traces.flush();
    },
  };
}
