/**
 * The database's tables and views as Kysely types, one interface each, read from `migrations/`
 * (a migration that changes a table changes its interface here). They are grouped into slices,
 * one per owner, and each library queries through the slice it may touch (`slice`): the event
 * store its log, the projections their read models, recall the read views and its own index. A
 * statement naming a table outside its slice does not compile.
 *
 * Column types follow what the driver hands back (database.ts): int8 as a JS number (its type
 * parser), timestamptz as a Date, jsonb parsed; ranges, vectors, tsvectors and xid8 as their
 * text. jsonb is written as JSON text (pg would send a JS array as a PostgreSQL array).
 */
import type { Cardinality, Citation, HiddenPart, MemoryKind, MemoryStatus, Speaker, Unconfirmed, VersionState } from '@factledger/domain';
import { type ColumnType, type GeneratedAlways, type Kysely, type RawBuilder, type SelectType, sql, type Transaction } from 'kysely';

/** timestamptz: a Date when read; written as a Date or an ISO 8601 text. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** int8 (bigint, bigserial): a JS number when read (database.ts's type parser; positions stay far below 2^53). */
export type Int8 = ColumnType<number, number | string, number | string>;
/** jsonb holding T: parsed when read, written as JSON text. */
export type Json<T> = ColumnType<T, string, string>;
/** xid8 (a transaction id): its decimal text. */
export type Xid8 = ColumnType<string, string, string>;
/** tstzrange: its text form, `[from,to)` (an open end empty). */
export type TstzRange = ColumnType<string, string, string>;
/** pgvector's `vector`: its text form, `[x,y,…]`. */
export type Vector = ColumnType<string, string, string>;
/** A stored generated tsvector: read as its text form, never written. */
export type TsVector = GeneratedAlways<string>;
/** A column with a default: what C is, and optional when inserting. */
export type Defaulted<C> = [C] extends [ColumnType<infer S, infer I, infer U>] ? ColumnType<S, I | undefined, U> : ColumnType<C, C | undefined, C>;

/** A view's columns, as its table's are read: nothing is written through a view. */
export type ReadOnly<T> = { [K in keyof T]: ColumnType<SelectType<T[K]>, never, never> };

/** A row as jsonb hands it over (to_jsonb, a jsonb function's reply): its times as ISO text. */
export type JsonRow<R> = { [K in keyof R]: R[K] extends Date ? string : R[K] extends Date | null ? string | null : R[K] };

/** An instant as a timestamptz parameter (its ISO text, cast): what a timestamptz column is compared with. */
export const timestamptz = (at: Date | string): RawBuilder<Date> => sql<Date>`${typeof at === 'string' ? at : at.toISOString()}::timestamptz`;

// ---- the log (libs/store) ----------------------------------------------------------------------

export interface EventsTable {
  global_position: Defaulted<Int8>;
  transaction_id: Defaulted<Xid8>;
  tenant: string;
  stream_id: string;
  stream_version: number;
  event_id: string;
  type: string;
  data: Json<unknown>;
  command_id: string | null;
  causation_id: string | null;
  correlation_id: string | null;
  batch: string | null;
  recorded_at: Timestamp;
  /** Set from the transaction's `factledger.actor` (migrations/017). */
  actor: Defaulted<string | null>;
}

export interface StreamsTable {
  tenant: string;
  stream_id: string;
  version: number;
}

export interface CommandsTable {
  tenant: string;
  command_id: string;
  last_position: Defaulted<Int8>;
  fingerprint: string | null;
}

export interface EventChainTable {
  global_position: Int8;
  content_hash: Buffer;
  hash: Buffer;
}

export interface EventSaltsTable {
  global_position: Int8;
  salt: Buffer;
}

export interface ApiKeysTable {
  key_id: string;
  tenant: string;
  scopes: string[];
  name: string | null;
  secret_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface MigrationsTable {
  name: string;
  applied_at: Defaulted<Timestamp>;
  checksum: string | null;
}

/** The event store's own tables: the log, its streams, commands and hash chain; API keys; the migrations applied. */
export interface StoreTables {
  fl_events: EventsTable;
  fl_streams: StreamsTable;
  fl_commands: CommandsTable;
  fl_event_chain: EventChainTable;
  fl_event_salts: EventSaltsTable;
  fl_api_keys: ApiKeysTable;
  fl_migrations: MigrationsTable;
}

// ---- the read models (libs/projections) --------------------------------------------------------

export interface CheckpointsTable {
  name: string;
  commit: Defaulted<Xid8>;
  prepare: Defaulted<Int8>;
  updated_at: Defaulted<Timestamp>;
}

export interface ProjectedStreamsTable {
  tenant: string;
  stream_id: string;
  version: number;
}

/** fl_memories' columns that hold a version's field as it is, under the same name (@factledger/domain VersionState). */
type VersionColumns = Pick<
  VersionState,
  | 'kind'
  | 'subject'
  | 'relation'
  | 'value'
  | 'text'
  | 'type'
  | 'speaker'
  | 'source'
  | 'authority'
  | 'cardinality'
  | 'core'
  | 'confirmations'
  | 'quarantined'
  | 'corrected'
  | 'withdrawn'
  | 'retracted'
  | 'overruled'
>;

export interface MemoriesTable extends VersionColumns {
  tenant: string;
  memory_id: string;
  stream_id: string;
  subject_norm: string | null;
  relation_norm: string | null;
  scope: Json<Record<string, string>>;
  scope_key: string;
  original_type: string;
  status: MemoryStatus;
  valid_from: Timestamp;
  valid_to: Timestamp | null;
  superseded_by: string | null;
  recorded_at: Timestamp;
  updated_at: Timestamp;
  last_position: Int8;
  hidden_parts: Defaulted<Json<HiddenPart[]>>;
  said_at: Timestamp;
  depends_on: Defaulted<Json<string[]>>;
  unconfirmed: Json<Unconfirmed> | null;
}

export interface FactHistoryTable {
  tenant: string;
  memory_id: string;
  opened_by: Int8;
  opened_event_type: string;
  stream_id: string;
  element: string;
  kind: MemoryKind;
  cardinality: Cardinality;
  subject: string | null;
  relation: string | null;
  subject_norm: string | null;
  scope: Json<Record<string, string>>;
  value: string | null;
  text: string;
  type: string;
  speaker: Speaker;
  source: string | null;
  status: 'active' | 'quarantined' | 'overruled';
  valid: TstzRange;
  tx: TstzRange;
  closed_by: Int8 | null;
  closed_event_type: string | null;
}

export interface ErasedMemoriesTable {
  tenant: string;
  memory_id: string;
  stream_id: string;
  erasure_id: string;
  erased_at: Timestamp;
  position: Int8;
  actor: string | null;
}

export interface AnswersTable {
  tenant: string;
  answer_id: string;
  question: string;
  text: string;
  citations: Json<(Citation & { erased?: boolean })[]>;
  status: 'answered' | 'reopened' | 'reviewed';
  reopened: Json<{ answerId: string; memoryId: string; reason: string; cause: { position: number; event: string }; at: string }> | null;
  recorded_at: Timestamp;
  updated_at: Timestamp;
  position: Int8;
  last_position: Int8;
}

export interface AnswerCitationsTable {
  tenant: string;
  memory_id: string;
  answer_id: string;
  position: Int8;
}

/** Where each reader of the log has read it up to (the projections lib keeps them). */
export interface CheckpointTables {
  fl_checkpoints: CheckpointsTable;
}

/** The fact projection's tables. */
export interface FactTables {
  fl_memories: MemoriesTable;
  fl_fact_history: FactHistoryTable;
  fl_projected_streams: ProjectedStreamsTable;
  fl_erased_memories: ErasedMemoriesTable;
}

/** The answers projection's tables. */
export interface AnswerTables {
  fl_answers: AnswersTable;
  fl_answer_citations: AnswerCitationsTable;
}

/** Everything the projections lib owns: its read models and the checkpoints. */
export type ProjectionTables = FactTables & AnswerTables & CheckpointTables;

// ---- the fact projection as other libs read it (migrations/022) --------------------------------

export interface ReadCheckpointsView {
  name: string;
  commit: string;
  prepare: number;
  updated_at: Date;
  /** The checkpoint row's xmin, as text: it changes whenever the row does. */
  row_version: string;
}

/** Views over the projection's tables, for other libs (recall); read only. */
export interface ReadViews {
  fl_read_memories: ReadOnly<MemoriesTable>;
  fl_read_history: ReadOnly<FactHistoryTable>;
  fl_read_erased: ReadOnly<ErasedMemoriesTable>;
  fl_read_checkpoints: ReadOnly<ReadCheckpointsView>;
}

// ---- recall (libs/recall) ----------------------------------------------------------------------

export interface RecallIndexTable {
  tenant: string;
  memory_id: string;
  model: string;
  dimensions: number;
  embedding: Vector;
  text: string;
  indexed_at: Defaulted<Timestamp>;
  /** Null for rows indexed before migration 013. */
  said_at: Timestamp | null;
  key_text: string | null;
  stems: TsVector;
  key_stems: TsVector;
  /** Null for rows indexed before migration 014. */
  kind: string | null;
}

export interface RecallPassagesTable {
  tenant: string;
  memory_id: string;
  model: string;
  n: number;
  dimensions: number;
  embedding: Vector;
}

export interface RecallTermsTable {
  tenant: string;
  model: string;
  stem: string;
  docs: number;
}

export interface RecallCorpusTable {
  tenant: string;
  model: string;
  docs: number;
  stems: Int8;
}

export interface RecallTracesTable {
  id: string;
  tenant: string;
  created_at: Timestamp;
  query: string;
  trace: Json<Record<string, unknown>>;
}

/** Recall's own index (with BM25's statistics) and its traces. */
export interface RecallTables {
  fl_recall_index: RecallIndexTable;
  fl_recall_passages: RecallPassagesTable;
  fl_recall_terms: RecallTermsTable;
  fl_recall_corpus: RecallCorpusTable;
  fl_recall_traces: RecallTracesTable;
}

/** What recall touches: the fact projection through its read views, and its own tables. */
export type RecallSlice = ReadViews & RecallTables;

// ---- embeddings (libs/embeddings) --------------------------------------------------------------

export interface EmbeddingCacheTable {
  model: string;
  text_sha256: string;
  dimensions: number;
  embedding: Vector;
  created_at: Defaulted<Timestamp>;
}

/** The embedding cache, shared by every tenant. */
export interface EmbeddingTables {
  fl_embedding_cache: EmbeddingCacheTable;
}

// ---- the whole -----------------------------------------------------------------------------------

/** Every table and view: what a connection of the Database reaches. Libraries narrow it to their slice. */
export type DatabaseSchema = StoreTables & ProjectionTables & ReadViews & RecallTables & EmbeddingTables;

/** Somewhere statements over `DB` run: a connection pool, or a transaction on one. */
export type Executor<DB = DatabaseSchema> = Kysely<DB> | Transaction<DB>;

/**
 * `db` typed to the slice `S` of its schema, `S` read from where the result goes (a field or a
 * parameter typed `Kysely<FactTables>`, say): the same connection or transaction, through which only
 * the tables `S` names can be queried. `db` must reach every table of `S` (the whole schema does).
 */
export function slice<S, DB extends S>(db: Executor<DB>): Kysely<S> {
  // Types only: a Kysely instance carries no table list at run time.
  return db as unknown as Kysely<S>;
}
