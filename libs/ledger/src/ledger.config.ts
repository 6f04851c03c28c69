/**
 * The one configuration object, read and validated once at start-up. Every default works
 * embedded: no variable set means PGlite in `./.data/factledger`.
 */
import { z } from 'zod';
import { DEFAULT_REVIEW_POLICY, InvalidInputError, type ReviewPolicy } from '@factledger/domain';

const reviewPolicySchema = z.object({ threshold: z.number().min(0).optional(), magnitudes: z.record(z.string(), z.number().min(0)).optional() }).strict();

/** A comma-separated setting as its items, trimmed, empty ones dropped. */
const commaList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  );

const configSchema = z
  .object({
    databaseUrl: z.string().url().optional(),
    dataDir: z.string().min(1).default('.data/factledger'),
    port: z.coerce.number().int().min(0).max(65535).default(3000),
    host: z.string().default('127.0.0.1'),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /**
     * API keys on the HTTP routes: `auto` requires them when the server listens beyond loopback or
     * any key exists, and otherwise runs open (saying so once); `required` always requires them.
     * Either way a server that requires keys refuses to start without one.
     */
    auth: z.enum(['auto', 'required']).default('auto'),
    /** Requests a minute one API key (or, with auth off, one client address) may make; 0: no limit. */
    rateLimit: z.coerce.number().int().min(0).max(1_000_000).default(1200),
    migrateOnStart: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
    readWaitMs: z.coerce.number().int().min(0).max(60_000).default(2000),
    /**
     * PostgreSQL hot standbys of DATABASE_URL (streaming replication), comma-separated: reads may be
     * served there once a standby has applied the write the read must show (docs/operations.md, "Read replicas").
     */
    readUrls: commaList.pipe(z.array(z.string().url('must be a postgres:// connection string'))),
    /** How long a read waits for a standby to reach the write it must show before the primary serves it. */
    replicaWaitMs: z.coerce.number().int().min(0).max(10_000).default(200),
    /**
     * Who runs the readers of the log (projections, recall indexer, re-review saga, sealer):
     * `internal`, this process in the background; `external`, `factledger worker` processes, so that
     * any number of servers can sit behind a load balancer.
     */
    workers: z.enum(['internal', 'external']).default('internal'),
    /**
     * Where the log lives: `postgres`, the `fl_events` table beside the read models; `kurrentdb`, a
     * KurrentDB / EventStoreDB server at KURRENTDB_URL (the read models stay in PostgreSQL).
     */
    eventStore: z.enum(['postgres', 'kurrentdb']).default('postgres'),
    /** The KurrentDB server, e.g. kurrentdb://localhost:2113?tls=false (esdb:// works too). */
    kurrentdbUrl: z
      .string()
      .regex(/^(kurrentdb|kdb|esdb)(\+discover)?:\/\//i, 'must be a kurrentdb:// (or esdb://) connection string')
      .optional(),
    /** Recall's embedder: the offline Universal Sentence Encoder Lite, or an OpenAI-compatible service. */
    embeddings: z.enum(['use-lite', 'openai']).default('use-lite'),
    embeddingsUrl: z.string().url().optional(),
    embeddingsModel: z.string().min(1).optional(),
    embeddingsDimensions: z.coerce.number().int().min(1).max(16_000).optional(),
    embeddingsApiKey: z.string().optional(),
    /** Names the user calls the assistant by, stripped from recall queries. */
    addressTerms: commaList,
    traceRetentionDays: z.coerce.number().min(0).max(3650).default(30),
    /** An OpenAI-compatible chat service for the optional model-backed parts (claim extraction, answer revision). */
    llmUrl: z.string().url().optional(),
    llmModel: z.string().min(1).optional(),
    llmApiKey: z.string().optional(),
    llmMaxRevisions: z.coerce.number().int().min(0).max(10).default(2),
    /**
     * The re-review policy, as JSON: `{"threshold": 1, "magnitudes": {"MemoryRetyped": 1}}` overrides
     * the defaults event type by event type.
     */
    reviewPolicy: z
      .string()
      .optional()
      .transform((v, ctx): ReviewPolicy => {
        if (!v) return DEFAULT_REVIEW_POLICY;
        const parsed = reviewPolicySchema.safeParse(
          (() => {
            try {
              return JSON.parse(v) as unknown;
            } catch {
              return null;
            }
          })(),
        );
        if (!parsed.success) {
          ctx.addIssue({ code: 'custom', message: 'must be JSON like {"threshold": 1, "magnitudes": {"FactSuperseded": 1}}' });
          return z.NEVER;
        }
        return { threshold: parsed.data.threshold ?? DEFAULT_REVIEW_POLICY.threshold, magnitudes: { ...DEFAULT_REVIEW_POLICY.magnitudes, ...parsed.data.magnitudes } };
      }),
    /** Who decides whether a message informs or asks: the offline rules, or the configured language model. */
    triage: z.enum(['rules', 'llm']).default('rules'),
    /** Who reads triples out of a message's statements: the offline rules, or the configured language model (offered the tenant's keys). */
    extraction: z.enum(['rules', 'llm']).default('rules'),
    /** Whether a message's statements are compared with the speaker's earlier memories, and a change said in other words retires what it changed. */
    resolution: z.enum(['rules', 'off']).default('rules'),
    /** Whether a prose statement that repeats an earlier one's frame with one value changed replaces it (frame alignment, docs/ingest.md), for every speaker and every write path. */
    restatement: z.enum(['frames', 'off']).default('frames'),
    /** A JSON admission-policy file that overrides the built-in gates (README: "Admission policy"). */
    admissionPolicy: z.string().min(1).optional(),
    /** Recall's tuning, as JSON (weights, thresholds, BM25, rendering); validated by recall at start-up. */
    recallTuning: z.string().optional(),
    /** How often the background indexer looks for new memories to embed. */
    indexIntervalMs: z.coerce.number().int().min(10).max(600_000).default(500),
  })
  .superRefine((c, ctx) => {
    if (c.readUrls.length > 0 && !c.databaseUrl) {
      ctx.addIssue({ code: 'custom', path: ['readUrls'], message: 'read replicas need a PostgreSQL primary (DATABASE_URL): the embedded database has no standby' });
    }
    if (c.eventStore === 'kurrentdb' && !c.kurrentdbUrl) {
      ctx.addIssue({ code: 'custom', path: ['kurrentdbUrl'], message: "required when the event store is 'kurrentdb' (KURRENTDB_URL)" });
    }
    if (c.triage === 'llm' && !c.llmUrl) {
      ctx.addIssue({ code: 'custom', path: ['triage'], message: "'llm' needs FACTLEDGER_LLM_URL and FACTLEDGER_LLM_MODEL" });
    }
    if (c.extraction === 'llm' && !c.llmUrl) {
      ctx.addIssue({ code: 'custom', path: ['extraction'], message: "'llm' needs FACTLEDGER_LLM_URL and FACTLEDGER_LLM_MODEL" });
    }
    if ((c.llmUrl === undefined) !== (c.llmModel === undefined)) {
      ctx.addIssue({ code: 'custom', path: [c.llmUrl ? 'llmModel' : 'llmUrl'], message: 'the language model needs both a URL and a model' });
    }
    if (c.embeddings !== 'openai') return;
    for (const k of ['embeddingsUrl', 'embeddingsModel', 'embeddingsDimensions'] as const) {
      if (c[k] === undefined) ctx.addIssue({ code: 'custom', path: [k], message: `required when embeddings is 'openai'` });
    }
  });

export type LedgerConfig = z.output<typeof configSchema>;

/** From environment variables: DATABASE_URL, FACTLEDGER_DATA_DIR, PORT, HOST, LOG_LEVEL, … */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Record<keyof LedgerConfig, unknown>> = {}): LedgerConfig {
  const result = configSchema.safeParse({
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.FACTLEDGER_DATA_DIR || undefined,
    port: env.PORT || undefined,
    host: env.HOST || undefined,
    logLevel: env.LOG_LEVEL || undefined,
    auth: env.FACTLEDGER_AUTH || undefined,
    rateLimit: env.FACTLEDGER_RATE_LIMIT || undefined,
    migrateOnStart: env.FACTLEDGER_MIGRATE_ON_START || undefined,
    readWaitMs: env.FACTLEDGER_READ_WAIT_MS || undefined,
    readUrls: env.FACTLEDGER_READ_URLS || undefined,
    replicaWaitMs: env.FACTLEDGER_REPLICA_WAIT_MS || undefined,
    workers: env.FACTLEDGER_WORKERS || undefined,
    eventStore: env.FACTLEDGER_EVENT_STORE || undefined,
    kurrentdbUrl: env.KURRENTDB_URL || undefined,
    embeddings: env.FACTLEDGER_EMBEDDINGS || undefined,
    embeddingsUrl: env.FACTLEDGER_EMBEDDINGS_URL || undefined,
    embeddingsModel: env.FACTLEDGER_EMBEDDINGS_MODEL || undefined,
    embeddingsDimensions: env.FACTLEDGER_EMBEDDINGS_DIMENSIONS || undefined,
    embeddingsApiKey: env.FACTLEDGER_EMBEDDINGS_API_KEY || undefined,
    addressTerms: env.FACTLEDGER_ADDRESS_TERMS || undefined,
    traceRetentionDays: env.FACTLEDGER_TRACE_RETENTION_DAYS || undefined,
    indexIntervalMs: env.FACTLEDGER_INDEX_INTERVAL_MS || undefined,
    recallTuning: env.FACTLEDGER_RECALL || undefined,
    llmUrl: env.FACTLEDGER_LLM_URL || undefined,
    llmModel: env.FACTLEDGER_LLM_MODEL || undefined,
    llmApiKey: env.FACTLEDGER_LLM_API_KEY || undefined,
    llmMaxRevisions: env.FACTLEDGER_LLM_MAX_REVISIONS || undefined,
    reviewPolicy: env.FACTLEDGER_REVIEW_POLICY || undefined,
    admissionPolicy: env.FACTLEDGER_ADMISSION_POLICY || undefined,
    triage: env.FACTLEDGER_TRIAGE || undefined,
    resolution: env.FACTLEDGER_RESOLUTION || undefined,
    restatement: env.FACTLEDGER_RESTATEMENT || undefined,
    extraction: env.FACTLEDGER_EXTRACTION || undefined,
    ...overrides,
  });
  if (!result.success) {
    throw new InvalidInputError(result.error.issues.map((i) => ({ path: `config.${i.path.join('.')}`, message: i.message })));
  }
  return result.data;
}
