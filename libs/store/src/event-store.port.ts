/**
 * The event-store port: the one seam between the ledger and wherever its log lives.
 *
 * Shaped so that an EventStoreDB/KurrentDB adapter fits behind it unchanged: streams with an
 * expected revision, and a global log position that is a (commit, prepare) pair like `$all`'s.
 * In PostgreSQL the commit part is the writing transaction's id and the prepare part the
 * event's global position, drawn in commit order, so a reader that follows positions never
 * skips an event that a concurrent transaction commits late (see postgres-event-store.ts).
 */
export interface NewEvent {
  eventId: string;
  type: string;
  data: unknown;
}

/** `'no-stream'`: the stream must not exist yet; a number: its current version; `'any'`: no check. */
export type ExpectedVersion = number | 'no-stream' | 'any';

export interface StreamAppend {
  streamId: string;
  expectedVersion: ExpectedVersion;
  events: NewEvent[];
}

export interface AppendContext {
  tenant: string;
  /** A retried command with the same id appends nothing twice. */
  commandId: string | null;
  /**
   * What the command id is bound to (the ledger's hash of the write and its input): kept with the
   * id when it is claimed, and answered with a duplicate, so that the caller can tell a retry from
   * another command that reuses the id. Null or absent: none (any retry is taken as the same).
   */
  commandFingerprint?: string | null;
  causationId: string | null;
  correlationId: string | null;
  /** Groups lifecycle changes so that a rollback can find and undo them. */
  batch: string | null;
  recordedAt: Date;
  /** Who caused it: an API key's id, or an actor id a host application passed; never a secret. */
  actor?: string | null;
}

export interface AppendResult {
  /** Global position of the last event written (or of the original write, for a retried command). */
  position: number;
  /** Each new event's global position, in the order given; empty for a duplicate. */
  positions: number[];
  /** True when the command id had already been appended: nothing was written this time. */
  duplicate: boolean;
  /** For a duplicate: the fingerprint the command id was first claimed with (null: it had none). */
  commandFingerprint?: string | null;
  streamVersions: Record<string, number>;
  /** What the follow-up returned; null when none ran (none asked, or a duplicate). */
  followUp: unknown;
}

/**
 * Work to run in the append's own transaction, after the events are in: a server-side function
 * called with `payload` and the new events' positions (an inline projection). An adapter that
 * cannot run one leaves `followUp` null, and the caller falls back to the projection runner.
 */
export interface AppendFollowUp {
  fn: string;
  payload: unknown;
}

export interface LogPosition {
  commit: string;
  prepare: number;
}

export const LOG_START: LogPosition = { commit: '0', prepare: 0 };

export interface RecordedEvent {
  globalPosition: number;
  logPosition: LogPosition;
  tenant: string;
  streamId: string;
  streamVersion: number;
  eventId: string;
  type: string;
  data: unknown;
  commandId: string | null;
  causationId: string | null;
  correlationId: string | null;
  batch: string | null;
  recordedAt: Date;
  /** Who caused it (see AppendContext.actor); null when nobody was named. */
  actor: string | null;
}

export interface ReadStreamResult {
  /** -1 when the stream does not exist. */
  version: number;
  events: RecordedEvent[];
}

/** What an adapter can do beyond the common contract; the caller takes another road where it cannot. */
export interface StoreCapabilities {
  /** Runs an append's follow-up (an inline projection) in the append's own transaction. */
  inlineProjection: boolean;
  /** Can rewrite an event's data in place (erasure, `redact`); without it `redact` refuses with StoreCapabilityError. */
  redact: boolean;
  /**
   * The log is a table (`fl_events`) of the read models' own database, so a reader may count it
   * inside a statement of its own, in the same snapshot (see checkpointLagStatement). Without it,
   * how far a consumer is behind comes from `behind`.
   */
  logInDatabase: boolean;
}

/** Committed events past a checkpoint (at or before `upTo`, when given), and the oldest one's time. */
export interface Backlog {
  events: number;
  oldest: Date | null;
}

/** How a subscription delivers (EventStore.subscribe). */
export interface SubscribeOptions {
  /** The most events handed over in one delivery (default 500). */
  pageSize?: number;
}

/** A catch-up subscription to the log (EventStore.subscribe). */
export interface LogSubscription {
  /** Ends it: no delivery starts after this call; resolves once the one in progress, if any, has returned. */
  close(): Promise<void>;
  /** Settles when it ends: resolves after `close`, rejects with what ended it otherwise (a failed read, a delivery that threw). */
  readonly ended: Promise<void>;
}

export interface EventStore {
  readonly capabilities: StoreCapabilities;
  /** Appends to one or more streams atomically: all events land, or none do. */
  append(context: AppendContext, appends: StreamAppend[], followUp?: AppendFollowUp): Promise<AppendResult>;
  readStream(tenant: string, streamId: string): Promise<ReadStreamResult>;
  /** Events after `after` in log order (commit order: no later append can appear behind it). */
  readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]>;
  /**
   * A catch-up subscription: every event committed after `after`, in log order and each once,
   * handed to `deliver` a page at a time; once caught up, new commits are delivered as they land.
   * A delivery starts only when the one before has returned, so a slow consumer holds the
   * subscription back and loses nothing. A delivery that throws ends the subscription.
   */
  subscribe(after: LogPosition, deliver: (events: RecordedEvent[]) => Promise<void>, options?: SubscribeOptions): LogSubscription;
  /** One tenant's events of one type after global position `after`, in log order, at most `limit`. */
  readType(tenant: string, type: string, after: number, limit: number): Promise<RecordedEvent[]>;
  /** Every event that carried a batch label, in log order. */
  readBatch(tenant: string, batch: string): Promise<RecordedEvent[]>;
  /** The highest committed global position (0 for an empty log). */
  head(): Promise<number>;
  /** Where a command id's append landed and the fingerprint it was claimed with; null when no append claimed it. */
  commandClaim(tenant: string, commandId: string): Promise<{ position: number; fingerprint: string | null } | null>;
  /** How much of the log lies past `after` (up to global position `upTo`, when given): what a consumer at that checkpoint has still to read. */
  behind(after: LogPosition, upTo: number | null): Promise<Backlog>;
  /** Chains the events committed since the last call into the log's hash chain; how many. */
  seal(options?: { pageSize?: number }): Promise<number>;
  /** Seals what is left, then checks the whole log against its hash chain (see LogVerification). */
  verify(options?: { pageSize?: number }): Promise<LogVerification>;
  /**
   * Erasure's one write: rewrites the data of the named events of `context.tenant` (nothing else
   * of them changes), and in the same transaction appends what `record` makes of the rewritten
   * rows' new content hashes: its first event must be an ERASURE_RECORDED whose data carries
   * `redacted: RedactedHash[]`, so that `verify` can check the rewritten rows. All or nothing.
   */
  redact(context: AppendContext, redactions: LogRedaction[], record: (hashes: RedactedHash[]) => StreamAppend[]): Promise<AppendResult>;
}

/** One event's data as an erasure leaves it. */
export interface LogRedaction {
  position: number;
  data: unknown;
}

/** A rewritten event's position and the hex SHA-256 of its content as rewritten. */
export type RedactedHash = [position: number, hash: string];

/** The type of the event that records an erasure's rewrites (see EventStore.redact). */
export const ERASURE_RECORDED = 'ErasureRecorded';

/**
 * What checking the log's hash chain found: every event's content hash recomputed from what the
 * row says, and every link (its hash over the previous event's hash and its content hash). `head`
 * is the last event's hash: kept somewhere else, it also shows whether the end of the log was cut.
 */
export type LogVerification =
  { ok: true; events: number; headPosition: number; head: string | null } | { ok: false; events: number; position: number; problem: 'content' | 'link' | 'missing' | 'deleted'; message: string };
