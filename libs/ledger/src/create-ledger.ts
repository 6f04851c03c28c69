/** Wires a Ledger from configuration: database, migrations, store, projections, clock. */
import { type Clock, type ReviewPolicy, systemClock } from '@factledger/domain';
import {
  AnswerProjection,
  AnswerReader,
  FactReader,
  LocalWorker,
  namedJobs,
  notingWrites,
  PostgresFactProjection,
  ProjectionRunner,
  ReplicaRouting,
  type WorkerJob,
  WritePositions,
} from '@factledger/projections';
import { Answers } from './answers';
import { Erasures } from './erasures';
import { Audit } from './audit';
import { FrameCache } from './frame-cache';
import { StreamCache } from './stream-cache';
import { PostgresEmbeddingCache } from '@factledger/embeddings';
import { ApiKeys } from './api-keys';
import { CascadeSaga } from './cascade.saga';
import { ReReviewSaga } from './re-review.saga';
import { type ChatModel, OpenAiChatModel } from '@factledger/llm';
import { AnswerReviser } from './answer-revision';
import { ClaimVerifier } from './verify-claims';
import {
  ApiKeyStore,
  type Database,
  type EventStore,
  migrate,
  type OpenedKurrentDb,
  openDatabase,
  openKurrentDbEventStore,
  PostgresEventStore,
  ReadReplicas,
  refreshStatistics,
} from '@factledger/store';
import { Ledger } from './ledger';
import type { LedgerConfig } from './ledger.config';

export interface LedgerHandle {
  ledger: Ledger;
  database: Database;
  /** The log: the PostgreSQL adapter on the same database, or the store given (KurrentDB: openKurrentDbEventStore). */
  store: EventStore;
  runner: ProjectionRunner;
  answers: Answers;
  /** Erasure of a memory, a subject or a tenant (erasures.ts). */
  erasures: Erasures;
  /** What the ledger believed at a moment, and what changed in it between two (audit.ts). */
  audit: Audit;
  saga: ReReviewSaga;
  /** Carries a change of a memory to the memories that hang on it (cascade.saga.ts). */
  cascade: CascadeSaga;
  verifier: ClaimVerifier;
  /** The fact read models, for callers that read many memories at once (population triage). */
  reader: FactReader;
  /** Model-backed answer revision; null when no language model is configured. */
  reviser: AnswerReviser | null;
  /** Where reads may be served besides the primary (PostgreSQL standbys); null when none is configured. */
  replicas: ReplicaRouting | null;
  /** API keys: made, listed, revoked, and checked for the HTTP routes. */
  keys: ApiKeys;
  /**
   * The ledger's background jobs, as a worker runs them: the fact and answer projections and the
   * re-review saga follow the log; once a pass, the sealer chains new events into the log's hash
   * chain and `statistics` analyzes the tables that grew (refreshStatistics, at most every 10 s).
   * `factledger worker` holds them through leases; `startWorkers` runs them here.
   */
  jobs: WorkerJob[];
  /** Runs `jobs` in this process until close (LocalWorker): the consumers follow the log, the others run every `intervalMs`. */
  startWorkers(intervalMs?: number, onError?: (error: unknown) => void): void;
  /** Stops them; a page in progress commits or rolls back first. */
  stopWorkers(): Promise<void>;
  /** Whether `startWorkers` runs them in this process now. */
  readonly workersRunning: boolean;
  close(): Promise<void>;
}

const STATISTICS_EVERY_MS = 10_000;

/** The names of the ledger's background jobs (`LedgerHandle.jobs`), in the order they are listed. */
export const LEDGER_JOBS = ['facts', 'answers', 're-review', 'cascade', 'seal', 'statistics'] as const;

/** Builds a ledger on an already open database (tests, benchmarks, hosts that own the pool). */
export function ledgerOn(
  database: Database,
  options: {
    clock?: Clock;
    waitTimeoutMs?: number;
    llm?: ChatModel;
    maxRevisions?: number;
    reviewPolicy?: ReviewPolicy;
    passive?: boolean;
    store?: EventStore;
    subscriptionPollMs?: number;
    /** Whether prose statements are aligned with what they may restate (default true; FACTLEDGER_RESTATEMENT). */
    restatement?: boolean;
    /** The copies of restatement's look-ups to keep (default: a new FrameCache). */
    frames?: FrameCache;
    /** PostgreSQL standbys reads may be served from (read-your-writes by position); closed with the ledger. */
    replicas?: ReadReplicas;
  } = {},
): LedgerHandle {
  const clock = options.clock ?? systemClock;
  const log = options.store ?? new PostgresEventStore(database.db, { subscriptionPollMs: options.subscriptionPollMs });
  // With standbys, every write's position is noted for its tenant: a read that names none is still served its own writes.
  const positions = options.replicas ? new WritePositions() : null;
  const store = positions ? notingWrites(log, positions) : log;
  const replicas = options.replicas && positions ? new ReplicaRouting(options.replicas, store, positions) : null;
  const facts = new PostgresFactProjection();
  // With workers elsewhere (FACTLEDGER_WORKERS=external) this process applies no projection itself.
  const runner = new ProjectionRunner(database.db, [facts, new AnswerProjection()], { waitTimeoutMs: options.waitTimeoutMs, sessions: database, log: store, passive: options.passive });
  const reader = new FactReader(database.db);
  const streams = new StreamCache();
  const frames = options.frames ?? new FrameCache();
  const ledger = new Ledger({ store, runner, inline: facts, reader, clock, streams, frames, restatement: options.restatement, replicas: replicas ?? undefined });
  const answerReader = new AnswerReader(database.db);
  const answers = new Answers({ store, runner, facts: reader, answers: answerReader, clock });
  const saga = new ReReviewSaga(database.db, { answers, reader: answerReader, runner }, options.reviewPolicy);
  const cascade = new CascadeSaga(database.db, { ledger, reader, runner, now: () => clock.now() });
  const erasures = new Erasures({ store, runner, facts: reader, answers: answerReader, clock, streams, frames, embeddingCache: new PostgresEmbeddingCache(database.db), saga });
  const verifier = new ClaimVerifier({ reader, now: () => clock.now() });
  // Looking for tables that grew costs ~1 ms natively and ~5 ms on PGlite: once every 10 s is plenty.
  let analyzedAt = Number.NEGATIVE_INFINITY;
  const statistics = async (): Promise<string[]> => {
    if (Date.now() - analyzedAt < STATISTICS_EVERY_MS) return [];
    analyzedAt = Date.now();
    return refreshStatistics(database);
  };
  const jobs = namedJobs(LEDGER_JOBS, {
    facts: { run: () => runner.catchUpOne('facts'), follow: (onError) => runner.followOne('facts', { onError }) },
    answers: { run: () => runner.catchUpOne('answers'), follow: (onError) => runner.followOne('answers', { onError }) },
    're-review': { run: () => saga.catchUp(), follow: (onError) => saga.follow({ onError }) },
    cascade: { run: () => cascade.catchUp(), follow: (onError) => cascade.follow({ onError }) },
    seal: { run: () => store.seal() },
    statistics: { run: () => statistics() },
  });
  const workers = new LocalWorker(jobs);
  const stopWorkers = (): Promise<void> => workers.stop();
  return {
    ledger,
    database,
    store,
    runner,
    answers,
    erasures,
    audit: new Audit({ reader, store, runner, clock, replicas: replicas ?? undefined }),
    saga,
    cascade,
    verifier,
    reader,
    replicas,
    reviser: options.llm ? new AnswerReviser({ model: options.llm, verifier }, options.maxRevisions) : null,
    keys: new ApiKeys(new ApiKeyStore(database.db), clock),
    jobs,
    startWorkers(intervalMs = 500, onError = () => undefined) {
      workers.start(intervalMs, onError);
    },
    stopWorkers,
    get workersRunning() {
      return workers.isRunning;
    },
    async close() {
      await stopWorkers();
      await options.replicas?.close();
      await database.close();
    },
  };
}

/** Opens the configured database, applies pending migrations, catches the read models up. */
export async function createLedger(config: LedgerConfig, options: { clock?: Clock } = {}): Promise<LedgerHandle> {
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  let kurrent: OpenedKurrentDb | null = null;
  let replicas: ReadReplicas | null = null;
  try {
    if (config.readUrls.length > 0) replicas = await ReadReplicas.open(config.readUrls, { waitMs: config.replicaWaitMs });
    if (config.migrateOnStart) await migrate(database.db);
    // The log in KurrentDB (FACTLEDGER_EVENT_STORE=kurrentdb), the read models here.
    if (config.eventStore === 'kurrentdb') kurrent = await openKurrentDbEventStore(config.kurrentdbUrl!);
    const llm = config.llmUrl && config.llmModel ? new OpenAiChatModel({ baseUrl: config.llmUrl, model: config.llmModel, apiKey: config.llmApiKey }) : undefined;
    const handle = ledgerOn(database, {
      clock: options.clock,
      waitTimeoutMs: config.readWaitMs,
      llm,
      maxRevisions: config.llmMaxRevisions,
      reviewPolicy: config.reviewPolicy,
      passive: config.workers === 'external',
      store: kurrent?.store,
      // A subscription to the log finds what other processes wrote as often as the index looks.
      subscriptionPollMs: config.indexIntervalMs,
      restatement: config.restatement !== 'off',
      replicas: replicas ?? undefined,
    });
    await handle.runner.catchUp();
    const log = kurrent;
    if (!log) return handle;
    // Wrapped in place: a copy would freeze `workersRunning` at its value now.
    const closeLedger = handle.close.bind(handle);
    handle.close = async () => {
      await closeLedger();
      await log.close();
    };
    return handle;
  } catch (error) {
    await replicas?.close();
    await database.close();
    await kurrent?.close();
    throw error;
  }
}
