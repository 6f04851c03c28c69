/**
 * The ledger's use cases: validate a command, decide it against its stream, append, bring the
 * read models up to the new position, answer. HTTP, the CLI, scenario runs and the Nest
 * module all call these methods (through the CommandBus/QueryBus where Nest is in play), so
 * there is one path from input to log.
 */
import { createHash, randomUUID } from 'node:crypto';
import { currentActor } from './actor';
import { decideAgainOnConflict, MAX_CONFLICT_RETRIES } from './decide-again';
import {
  type Clock,
  decide,
  type MemoryStatus,
  evolve,
  factStreamId,
  InvalidInputError,
  inputIssues,
  type MemoryCommand,
  type MemoryEvent,
  normalizeTerm,
  type Outcome,
  planRollback,
  proseStreamId,
  replay,
  type RollbackItem,
  type StreamEvent,
  type StreamState,
  UnknownBatchError,
  UnknownMemoryError,
  MemoryErasedError,
  CommandIdReusedError,
  planRestatement,
  type RestatementDecision,
  type RestatementPlan,
  frameStatement,
  frameStem,
  languageOf,
  changedParts,
  agentTurn,
  changingParts,
} from '@factledger/domain';
import { type FactReader, type HistoryRow, type InlineProjection, type MemoryRow, type PendingStream, type PlannedFrame, type ProjectionRunner, type ResemblingMemory, RESTATING_LIMIT } from '@factledger/projections';
import {
  type AppendContext,
  type AppendResult,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
  type StreamAppend,
  tracedAppend,
} from '@factledger/store';
import { FrameCache } from './frame-cache';
import { type CachedStream, StreamCache } from './stream-cache';
import type { z } from 'zod';
import {
  assertSchema,
  factQuerySchema,
  historyQuerySchema,
  memoryQuerySchema,
  quarantineSchema,
  restoreSchema,
  confirmSchema,
  retractSchema,
  retypeSchema,
  rollbackSchema,
  batchQuerySchema,
  subjectQuerySchema,
  tenantSchema,
  writeManyMetaSchema,
} from './ledger.schemas';

export interface WriteResult {
  outcome: Outcome;
  memoryId: string;
  /** Global log position of this write; pass it as `minPosition` to read your own write. */
  position: number;
  /** True when the command id was seen before: nothing new was appended. */
  replayed: boolean;
  /** For a prose statement: the earlier memories it restates with another value, and what was done to each (frame alignment). */
  restated?: RestatementDecision[];
  /** For a prose statement: statements inside earlier memories that it changes, hidden from then on (turn parts). */
  replacedParts?: PartDecision[];
}

/** Statements inside an earlier memory that a new one replaced (@factledger/domain turn-parts.ts). */
export interface PartDecision {
  memoryId: string;
  parts: { start: number; end: number; text: string }[];
  kind: string;
  earlierValue: string;
  nextValue: string;
  rule: string;
}

/** What a batch label covers: every event that carried it, oldest first, and each memory they touched as it stands now. */
export interface BatchView {
  batch: string;
  events: { position: number; type: string; memoryId: string | null; recordedAt: string; actor: string | null; reason: string | null }[];
  memories: MemoryView[];
}

export interface RollbackResult {
  batch: string;
  position: number;
  items: RollbackItem[];
}

export interface MemoryView {
  memoryId: string;
  kind: string;
  subject: string | null;
  relation: string | null;
  scope: Record<string, string>;
  value: string | null;
  text: string;
  type: string;
  originalType: string;
  speaker: string;
  source: string | null;
  authority: number;
  cardinality: string;
  core: boolean;
  status: string;
  validFrom: string;
  validTo: string | null;
  confirmations: number;
  /** When the statement was said (a message's time, a document's date); `recordedAt` is when the ledger learned it. */
  saidAt: string;
  recordedAt: string;
  supersededBy: string | null;
  /** Statements inside its text that newer memories replaced (spans; the text stays whole), with when, and when given back. */
  hiddenParts: { start: number; end: number; text: string; by: string; from: string; at: string; undoneAt: string | null }[];
  /** The memories it hangs on (R32). */
  dependsOn: string[];
  /** While a memory it hangs on has changed since: which, what took its place, the change and where in the log. Null when confirmed. */
  unconfirmed: { premise: string; by: string | null; event: string; position: number; depth: number } | null;
}

export interface VersionView {
  memoryId: string;
  value: string | null;
  text: string;
  type: string;
  speaker: string;
  source: string | null;
  validFrom: string;
  validTo: string | null;
  recordedAt: string;
}

export interface FactView {
  subject: string;
  relation: string;
  scope: Record<string, string>;
  /** The key's cardinality; null when no version holds at that point. */
  cardinality: string | null;
  /** The one value for a `one` key (null when none holds); for a set, null — see `values`. */
  value: string | null;
  values: string[];
  versions: VersionView[];
  validAt: string;
  knownAt: string;
}

export interface HistoryView {
  memoryId: string;
  value: string | null;
  text: string;
  type: string;
  /** The memory's status now (active, retired, quarantined, overruled), as GET /memories/{id} gives it. */
  status: string;
  /** How this row shows its version over its valid period and while it was known: active, quarantined or overruled. */
  shownAs: string;
  validFrom: string;
  validTo: string | null;
  knownFrom: string | null;
  knownTo: string | null;
  /** The event that opened this row: who caused it (an API key's id, or a host's actor id; null when nobody was named), its batch label and causation id. */
  openedBy: { position: number; event: string; actor: string | null; batch: string | null; causation: string | null };
  /** The event that closed this row, with its reason and batch label when it had them (a retraction by resolution says which message and rule), the memory that took its place, who caused it, and its causation id. */
  closedBy: { position: number; event: string; reason: string | null; batch: string | null; by: string | null; actor: string | null; causation: string | null } | null;
}

export interface LedgerDeps {
  store: EventStore;
  runner: ProjectionRunner;
  /** Applies a command's events to the read models in the append's own transaction. */
  inline?: InlineProjection;
  reader: FactReader;
  clock: Clock;
  newId?: () => string;
  /** The copies of streams this process keeps (shared with erasure, which drops those it erases). */
  streams?: StreamCache;
  /** The copies of restatement's look-ups this process keeps (shared with erasure, likewise). */
  frames?: FrameCache;
  /** Whether a prose statement is aligned with the memories it may restate (default true; FACTLEDGER_RESTATEMENT=off). */
  restatement?: boolean;
}

type Meta = {
  commandId?: string;
  correlationId?: string;
  causationId?: string;
  batch?: string;
  /** What the command id is bound to (commandFingerprint); only with a command id. */
  fingerprint?: string;
};

/** One write of a `writeMany`, with the input its single-write method takes. */
export type LedgerOp = { assert: unknown } | { retract: unknown } | { quarantine: unknown } | { retype: unknown } | { restore: unknown };

/** The kinds of write a command id can name (commandFingerprint). */
type LedgerOpKind = 'assert' | 'retract' | 'quarantine' | 'retype' | 'restore' | 'unconfirm' | 'confirm';

/** A LedgerOp with its input validated. */
type ParsedOp =
  | { assert: z.output<typeof assertSchema> }
  | { retract: z.output<typeof retractSchema> }
  | { quarantine: z.output<typeof quarantineSchema> }
  | { retype: z.output<typeof retypeSchema> }
  | { restore: z.output<typeof restoreSchema> };

export interface WriteManyOptions extends Meta {
  /** Appends of the caller's own, given each write's outcome; they land in the same append. */
  attach?: (results: OpResult[], batch: string | null) => StreamAppend[];
  /** The label for retirements by restatement when `batch` is not given (an ingest: `resolution:<messageId>`). */
  restatementBatch?: string;
  /**
   * What the command id is bound to when the ops are derived from state that a retry may find
   * changed (an ingest: a hash of its message, commandFingerprint). Default: the ops' and labels' own.
   */
  fingerprint?: string;
}

export interface ManyWriteResult {
  /** Global position of the last event written; pass it as `minPosition` to read your own writes. */
  position: number;
  replayed: boolean;
  /** One per op, in order. */
  results: OpResult[];
  /** The batch label the write carried: the caller's, or the one given to its restatements' retirements (null when none). */
  batch: string | null;
}

/** What one op did; a prose statement also says what it restated. */
export type OpResult = { outcome: Outcome; memoryId: string; restated?: RestatementDecision[]; replacedParts?: PartDecision[] };

type Planned = { streamId: string; command: MemoryCommand };

/** An op planned: its own command first, then those it brings along (the retirements of what a statement restates). */
type PlannedOp = { planned: Planned[]; restated?: RestatementDecision[]; replacedParts?: PartDecision[]; frame?: PlannedFrame };

/**
 * How a write's prose statements find what they may restate: `known`, the memories a refused
 * append brought back (by frameKey); else the FrameCache's copy; else, when `guess` (a write of
 * one op), nothing (a new subject and verb, checked by the guard like a new stream's version);
 * else the look-up.
 */
type FramePlanning = { known: Map<string, MemoryRow[]>; guess: boolean };

/** The namespace of the memory ids a command id fixes (memoryIdsOf): a UUID of our own. */
const COMMAND_MEMORY_NAMESPACE = Buffer.from('6f1c2b7e9a4d4e0b8c3a5d2f1e0b9c7a', 'hex');

/**
 * The ids of the memories a write creates, in the order it plans them. With a command id they are
 * name-based UUIDs (version 5) of the tenant, the command id and the place: a retried command plans
 * the same ids, so when the store finds the command landed before (a reply lost to a crash, a
 * transaction that committed after its process died) the ids it answers with are the ones on
 * record, even if its decision was made before the first attempt became visible. Without one, random.
 */
function memoryIdsOf(tenant: string, commandId: string | null | undefined, random: () => string): () => string {
  if (!commandId) return random;
  let n = 0;
  return () => {
    const hash = createHash('sha1').update(COMMAND_MEMORY_NAMESPACE).update(`${tenant}\u0000${commandId}\u0000${n++}`).digest();
    hash[6] = (hash[6]! & 0x0f) | 0x50;
    hash[8] = (hash[8]! & 0x3f) | 0x80;
    const hex = hash.subarray(0, 16).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}

/** The ids that only trace a command (where it came from), not what it asks: no part of its fingerprint. */
const TRACE_IDS = new Set(['commandId', 'correlationId', 'causationId']);

/** A value as canonical JSON: keys sorted, absent fields left out, dates as ISO text. */
function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(object)
      .filter((k) => object[k] !== undefined)
      .sort()
      .map((k) => [k, canonical(object[k])]),
  );
}

/**
 * What a command id is bound to: the hex SHA-256 of the kind of write and its validated input (as
 * canonical JSON, without the ids that only trace it). A retry of the same command has the same
 * one; another command that reuses the id has another, and is refused (CommandIdReusedError).
 */
export function commandFingerprint(kind: string, input: object): string {
  const own = Object.fromEntries(Object.entries(input).filter(([k]) => !TRACE_IDS.has(k)));
  return createHash('sha256').update(JSON.stringify([kind, canonical(own)])).digest('hex');
}

/** A write's meta with the fingerprint its command id is bound to (none without a command id). */
function bound<M extends Meta>(kind: string, input: M): M {
  return input.commandId ? { ...input, fingerprint: commandFingerprint(kind, input) } : input;
}

/**
 * A command id the store found landed before must have named this same command: a retry answers
 * as replayed, another command is refused and nothing of it is written. A claim kept without a
 * fingerprint (made before migrations/027, or by a caller that gives none) takes any retry.
 */
function refuseReusedCommandId(context: AppendContext, result: AppendResult): void {
  if (!result.duplicate || !context.commandId || !context.commandFingerprint || !result.commandFingerprint) return;
  if (result.commandFingerprint !== context.commandFingerprint) throw new CommandIdReusedError(context.commandId);
}

/** A look-up's identity within a write: its subject and verb, or (none found) its text. */
const frameKey = (p: { text: string; stem: string | null }): string => (p.stem === null ? `text\u0000${p.text}` : `stem\u0000${p.stem}`);

/** The batch label of the retirements a prose assert's restatements make, when the write has none: `restatement:<memoryId>`. */
export const RESTATEMENT_BATCH = 'restatement:';

/**
 * The batch a write carries: the caller's; else, when an op brings commands along (the
 * retirements and hidden parts of what a statement restates), a label of their own to be rolled
 * back by (`fallback`, or `restatement:<memoryId>` of that op's new memory); else none.
 */
function batchOf(given: string | undefined, ops: readonly PlannedOp[], fallback?: string): string | undefined {
  if (given) return given;
  const restating = ops.find((p) => p.planned.length > 1);
  return restating ? (fallback ?? `${RESTATEMENT_BATCH}${restating.planned[0]!.command.memoryId}`) : undefined;
}

const OWN_META = ['commandId', 'correlationId', 'causationId', 'batch'] as const;

/** An op's input, refused when it sets what belongs to the whole write (its metadata). */
function withoutOwnMeta<T extends Meta>(input: T): T {
  const set = OWN_META.filter((k) => input[k] !== undefined);
  if (set.length) throw new InvalidInputError(set.map((k) => ({ path: k, message: 'set it on the whole write, not on one op' })));
  return input;
}

/** Issues of a writeMany's op `i`, named by its index (`ops.<i>.<field>`). */
function opIssues(i: number, issues: { path: string; message: string }[]): { path: string; message: string }[] {
  return issues.map((x) => ({ path: `ops.${i}.${x.path}`.replace(/\.$/, ''), message: x.message }));
}

/** Each op of a writeMany validated, once for all its attempts; an invalid one is named by its index. */
function parseOps(ops: LedgerOp[]): ParsedOp[] {
  return ops.map((op, i) => {
    try {
      if ('assert' in op) return { assert: withoutOwnMeta(parse(assertSchema, op.assert)) };
      if ('retract' in op) return { retract: withoutOwnMeta(parse(retractSchema, op.retract)) };
      if ('quarantine' in op) return { quarantine: withoutOwnMeta(parse(quarantineSchema, op.quarantine)) };
      if ('retype' in op) return { retype: withoutOwnMeta(parse(retypeSchema, op.retype)) };
      return { restore: withoutOwnMeta(parse(restoreSchema, op.restore)) };
    } catch (error) {
      if (error instanceof InvalidInputError) throw new InvalidInputError(opIssues(i, error.issues));
      throw error;
    }
  });
}

/** The input validated by `schema`: a typed error naming every field that is wrong, text that cannot be stored first. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const unfit = inputIssues(input);
  if (unfit.length) throw new InvalidInputError(unfit);
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw new InvalidInputError(result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })));
}

export function toStreamEvent(e: RecordedEvent): StreamEvent {
  return { eventId: e.eventId, batch: e.batch, event: { type: e.type, data: e.data } as MemoryEvent };
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const isoDate = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** What resolution compares of an earlier memory (Ledger.resembling). */
export type ResemblingView = Pick<MemoryView, 'memoryId' | 'kind' | 'subject' | 'relation' | 'scope' | 'text' | 'type' | 'validFrom' | 'saidAt'>;

/** A memory as resolution and forgetting compare it, with its times as ISO text. */
const resemblingView = (m: ResemblingMemory): ResemblingView => ({ ...m, validFrom: iso(m.validFrom)!, saidAt: iso(m.saidAt)! });

export function memoryView(m: MemoryRow): MemoryView {
  return {
    memoryId: m.memoryId,
    kind: m.kind,
    subject: m.subject,
    relation: m.relation,
    scope: m.scope,
    value: m.value,
    text: m.text,
    type: m.type,
    originalType: m.originalType,
    speaker: m.speaker,
    source: m.source,
    authority: m.authority,
    cardinality: m.cardinality,
    core: m.core,
    status: m.status,
    validFrom: iso(m.validFrom)!,
    validTo: iso(m.validTo),
    confirmations: m.confirmations,
    saidAt: iso(m.saidAt)!,
    recordedAt: m.recordedAt.toISOString(),
    supersededBy: m.supersededBy,
    hiddenParts: m.hiddenParts.map((p) => ({ start: p.start, end: p.end, text: m.text.slice(p.start, p.end), by: p.by, from: iso(p.from)!, at: iso(p.at)!, undoneAt: iso(p.undoneAt) })),
    dependsOn: m.dependsOn,
    unconfirmed: m.unconfirmed,
  };
}

/** A string field of an event's data (its memory, reason, the memory that took its place), or null. */
export function eventText(e: RecordedEvent | undefined, name: 'memoryId' | 'reason' | 'by'): string | null {
  const v = (e?.data as Record<string, unknown> | null | undefined)?.[name];
  return typeof v === 'string' ? v : null;
}

export function versionView(h: HistoryRow): VersionView {
  return {
    memoryId: h.memoryId,
    value: h.value,
    text: h.text,
    type: h.type,
    speaker: h.speaker,
    source: h.source,
    validFrom: h.validFrom.toISOString(),
    validTo: isoDate(h.validTo),
    recordedAt: h.txFrom.toISOString(),
  };
}

export class Ledger {
  private readonly newId: () => string;
  private readonly proseTurns = new Map<string, Promise<void>>();
  private readonly streams: StreamCache;
  private readonly frames: FrameCache;

  constructor(private readonly deps: LedgerDeps) {
    this.newId = deps.newId ?? randomUUID;
    this.streams = deps.streams ?? new StreamCache();
    this.frames = deps.frames ?? new FrameCache();
  }

  // ---- commands -------------------------------------------------------------------------

  async assert(tenant: string, input: unknown): Promise<WriteResult> {
    const t = parse(tenantSchema, tenant);
    const a = parse(assertSchema, input);
    return this.planAgainOnChangedFrames(t, a.subject === undefined, async (known) => this.single(t, 'assert', a, await this.planAssert(t, a, { known, guess: true }, memoryIdsOf(t, a.commandId, this.newId))));
  }

  async retract(tenant: string, input: unknown): Promise<WriteResult> {
    const t = parse(tenantSchema, tenant);
    const r = parse(retractSchema, input);
    return this.single(t, 'retract', r, await this.planRetract(t, r));
  }

  private async planRetract(tenant: string, r: z.output<typeof retractSchema>): Promise<PlannedOp> {
    const streamId = r.memoryId
      ? (await this.locate(tenant, r.memoryId)).streamId
      : factStreamId({ subject: r.subject!, relation: r.relation!, scope: r.scope ?? {} });
    const command: MemoryCommand = {
      kind: 'RetractMemory',
      memoryId: r.memoryId ?? null,
      value: r.memoryId ? null : r.value!,
      validFrom: r.validFrom ?? this.deps.clock.now(),
      reason: r.reason ?? null,
    };
    return { planned: [{ streamId, command }] };
  }

  async quarantine(tenant: string, input: unknown): Promise<WriteResult> {
    const t = parse(tenantSchema, tenant);
    const q = parse(quarantineSchema, input);
    return this.single(t, 'quarantine', q, await this.planLifecycle(t, { kind: 'QuarantineMemory', memoryId: q.memoryId, reason: q.reason ?? null }));
  }

  async restore(tenant: string, input: unknown): Promise<WriteResult> {
    const t = parse(tenantSchema, tenant);
    const r = parse(restoreSchema, input);
    return this.single(t, 'restore', r, await this.planLifecycle(t, { kind: 'RestoreMemory', memoryId: r.memoryId, reason: r.reason ?? null }));
  }

  /**
   * A memory marked unconfirmed (what it hung on changed) holds after all, as someone who knows
   * says: the mark is cleared (MemoryConfirmed), the memory shown again without it. Unchanged for
   * a memory with no mark.
   */
  async confirm(tenant: string, input: unknown): Promise<WriteResult> {
    const t = parse(tenantSchema, tenant);
    const c = parse(confirmSchema, input);
    return this.single(t, 'confirm', c, await this.planLifecycle(t, { kind: 'ConfirmMemory', memoryId: c.memoryId, reason: c.reason ?? null }));
  }

  /**
   * The cascade's door (cascade.saga.ts): a memory this one hangs on changed, so it is no longer
   * confirmed. Idempotent per (memory, cause) through its command id; the batch is the cause's, so
   * that rolling the cause back rolls this back too.
   */
  async markUnconfirmed(tenant: string, mark: { memoryId: string; premise: string; by: string | null; event: string; position: number; depth: number }, meta: { causationId: string; batch: string | null }): Promise<WriteResult> {
    const t = parse(tenantSchema, tenant);
    const commandId = `unconfirm:${mark.memoryId}:${mark.position}`;
    const planned = await this.planLifecycle(t, { kind: 'MarkUnconfirmed', ...mark });
    return this.single(t, 'unconfirm', { ...mark, commandId, causationId: meta.causationId, ...(meta.batch ? { batch: meta.batch } : {}) }, planned);
  }

  async retype(tenant: string, input: unknown): Promise<WriteResult> {
    const t = parse(tenantSchema, tenant);
    const r = parse(retypeSchema, input);
    return this.single(t, 'retype', r, await this.planLifecycle(t, { kind: 'RetypeMemory', memoryId: r.memoryId, type: r.type, reason: r.reason ?? null }));
  }

  /**
   * Several writes decided together and appended atomically, in one round trip: all land or
   * none do, under one command id and batch label. `attach` adds streams of the caller's own
   * (an ingest record) that see each write's outcome. Each op takes the input of its
   * single-write method, without the write's own metadata (that belongs to the whole call).
   */
  async writeMany(tenant: string, ops: LedgerOp[], options: WriteManyOptions = {}): Promise<ManyWriteResult> {
    const t = parse(tenantSchema, tenant);
    const meta = parse(writeManyMetaSchema, { commandId: options.commandId, correlationId: options.correlationId, causationId: options.causationId, batch: options.batch });
    const parsed = parseOps(ops);
    // Bound to the ops and labels as given (their plan can change between attempts), or to what the caller names.
    const fingerprint = meta.commandId ? (options.fingerprint ?? commandFingerprint('writeMany', { ops: parsed, batch: meta.batch, restatementBatch: options.restatementBatch })) : undefined;
    const prose = parsed.some((op) => 'assert' in op && op.assert.subject === undefined);
    return this.planAgainOnChangedFrames(t, prose, async (known) => {
      const planned = await this.planOps(t, parsed, { known, guess: ops.length === 1 }, memoryIdsOf(t, meta.commandId, this.newId));
      return this.run(t, { ...meta, fingerprint, batch: batchOf(meta.batch, planned, options.restatementBatch) }, planned, options.attach);
    });
  }

  /** Each op of a writeMany planned in order; one that cannot be is named by its index (`ops.<i>.<field>`). */
  private async planOps(t: string, ops: ParsedOp[], frames: FramePlanning, memoryIds: () => string): Promise<PlannedOp[]> {
    const planned: PlannedOp[] = [];
    for (const [i, op] of ops.entries()) {
      try {
        if ('assert' in op) planned.push(await this.planAssert(t, op.assert, frames, memoryIds));
        else if ('retract' in op) planned.push(await this.planRetract(t, op.retract));
        else if ('quarantine' in op) planned.push(await this.planLifecycle(t, { kind: 'QuarantineMemory', memoryId: op.quarantine.memoryId, reason: op.quarantine.reason ?? null }));
        else if ('retype' in op) planned.push(await this.planLifecycle(t, { kind: 'RetypeMemory', memoryId: op.retype.memoryId, type: op.retype.type, reason: op.retype.reason ?? null }));
        else planned.push(await this.planLifecycle(t, { kind: 'RestoreMemory', memoryId: op.restore.memoryId, reason: op.restore.reason ?? null }));
      } catch (error) {
        if (error instanceof InvalidInputError) throw new InvalidInputError(opIssues(i, error.issues));
        throw error;
      }
    }
    return planned;
  }

  /** A batch's events (UnknownBatchError when none carried the label) and the memories they touched, as they stand. */
  async batch(tenant: string, input: unknown): Promise<BatchView> {
    const t = parse(tenantSchema, tenant);
    const q = parse(batchQuerySchema, input);
    await this.deps.runner.awaitPosition(q.minPosition, 'facts');
    const labelled = await this.deps.store.readBatch(t, q.batch);
    if (labelled.length === 0) throw new UnknownBatchError(q.batch);
    const ids = [...new Set(labelled.map((e) => eventText(e, 'memoryId')).filter((id): id is string => id !== null))];
    return {
      batch: q.batch,
      events: labelled.map((e) => ({ position: e.globalPosition, type: e.type, memoryId: eventText(e, 'memoryId'), recordedAt: e.recordedAt.toISOString(), actor: e.actor ?? null, reason: eventText(e, 'reason') })),
      memories: (await this.deps.reader.memories(t, ids)).map(memoryView),
    };
  }

  /** Undoes a batch's lifecycle changes across every stream they touched, in one append. */
  async rollback(tenant: string, input: unknown): Promise<RollbackResult> {
    const t = parse(tenantSchema, tenant);
    const r = parse(rollbackSchema, input);
    return decideAgainOnConflict(async () => {
      const labelled = await this.deps.store.readBatch(t, r.batch);
      if (labelled.length === 0) throw new UnknownBatchError(r.batch);
      const streams = [...new Set(labelled.map((e) => e.streamId))];
      const appends = [];
      const items: RollbackItem[] = [];
      for (const streamId of streams) {
        const stream = await this.deps.store.readStream(t, streamId);
        const plan = planRollback(replay(stream.events.map(toStreamEvent)), r.batch, this.deps.clock.now());
        items.push(...plan.items);
        if (plan.events.length) {
          appends.push({ streamId, expectedVersion: stream.version, events: plan.events.map((e) => this.toNew(e)) });
        }
      }
      for (const a of appends) this.streams.drop(t, a.streamId);
      let position: number;
      if (appends.length) {
        const context = this.context(t, { ...bound('rollback', { commandId: r.commandId, batch: r.batch }), batch: `rollback:${r.batch}` });
        const result = await tracedAppend(this.deps.store, context, appends);
        refuseReusedCommandId(context, result);
        position = result.position;
      } else position = await this.deps.store.head();
      await this.deps.runner.catchUp();
      return { batch: r.batch, position, items };
    });
  }

  // ---- queries --------------------------------------------------------------------------

  async fact(tenant: string, input: unknown): Promise<FactView> {
    const t = parse(tenantSchema, tenant);
    const q = parse(factQuerySchema, input);
    await this.deps.runner.awaitPosition(q.minPosition, 'facts');
    const now = this.deps.clock.now();
    const at = { validAt: q.validAt ?? now, knownAt: q.knownAt ?? now };
    const streamId = factStreamId({ subject: q.subject, relation: q.relation, scope: q.scope ?? {} });
    const rows = await this.deps.reader.valuesAt(t, streamId, at);
    const card = rows[0]?.cardinality ?? null;
    return {
      subject: q.subject,
      relation: q.relation,
      scope: q.scope ?? {},
      cardinality: card,
      value: card === 'many' ? null : (rows[0]?.value ?? null),
      values: rows.map((r) => r.value ?? ''),
      versions: rows.map(versionView),
      validAt: at.validAt.toISOString(),
      knownAt: at.knownAt.toISOString(),
    };
  }

  async subject(tenant: string, input: unknown): Promise<{ subject: string; facts: (VersionView & { relation: string | null; scope: Record<string, string> })[]; validAt: string; knownAt: string }> {
    const t = parse(tenantSchema, tenant);
    const q = parse(subjectQuerySchema, input);
    await this.deps.runner.awaitPosition(q.minPosition, 'facts');
    const now = this.deps.clock.now();
    const at = { validAt: q.validAt ?? now, knownAt: q.knownAt ?? now };
    const rows = await this.deps.reader.subjectAt(t, normalizeTerm(q.subject), at);
    return {
      subject: q.subject,
      facts: rows.map((r) => ({ ...versionView(r), relation: r.relation, scope: r.scope })),
      validAt: at.validAt.toISOString(),
      knownAt: at.knownAt.toISOString(),
    };
  }

  async history(tenant: string, input: unknown): Promise<{ subject: string; relation: string; scope: Record<string, string>; entries: HistoryView[] }> {
    const t = parse(tenantSchema, tenant);
    const q = parse(historyQuerySchema, input);
    await this.deps.runner.awaitPosition(q.minPosition, 'facts');
    const streamId = factStreamId({ subject: q.subject, relation: q.relation, scope: q.scope ?? {} });
    return { subject: q.subject, relation: q.relation, scope: q.scope ?? {}, entries: await this.historyOf(t, streamId) };
  }

  /** The bitemporal history of the stream a memory is in: its key's, or a prose memory's own. */
  async memoryHistory(tenant: string, input: unknown): Promise<{ memoryId: string; entries: HistoryView[] }> {
    const t = parse(tenantSchema, tenant);
    const q = parse(memoryQuerySchema, input);
    await this.deps.runner.awaitPosition(q.minPosition, 'facts');
    const m = await this.locate(t, q.memoryId);
    return { memoryId: q.memoryId, entries: await this.historyOf(t, m.streamId) };
  }

  private async historyOf(tenant: string, streamId: string): Promise<HistoryView[]> {
    // The rows from the projection; why each closed (reason, batch) and who opened and closed it
    // from the stream's own events, which opened and closed every row of it.
    const [entries, stream] = await Promise.all([this.deps.reader.history(tenant, streamId), this.deps.store.readStream(tenant, streamId)]);
    const at = new Map(stream.events.map((e) => [e.globalPosition, e]));
    // Each row carries its memory's status now, as GET /memories/{id} gives it, beside how the row shows it over its period.
    const statusOf = new Map((await this.deps.reader.memories(tenant, [...new Set(entries.map((h) => h.memoryId))])).map((m) => [m.memoryId, m.status]));
    return entries.map((h) => ({
        memoryId: h.memoryId,
        value: h.value,
        text: h.text,
        type: h.type,
        status: statusOf.get(h.memoryId) ?? h.status,
        shownAs: h.status,
        validFrom: h.validFrom.toISOString(),
        validTo: isoDate(h.validTo),
        knownFrom: isoDate(h.txFrom),
        knownTo: isoDate(h.txTo),
        openedBy: { position: h.openedBy, event: h.openedEventType, actor: at.get(h.openedBy)?.actor ?? null, batch: at.get(h.openedBy)?.batch ?? null, causation: at.get(h.openedBy)?.causationId ?? null },
        closedBy:
          h.closedBy === null
            ? null
            : {
                position: h.closedBy,
                event: h.closedEventType ?? '',
                reason: eventText(at.get(h.closedBy), 'reason'),
                batch: at.get(h.closedBy)?.batch ?? null,
                by: eventText(at.get(h.closedBy), 'by'),
                actor: at.get(h.closedBy)?.actor ?? null,
                causation: at.get(h.closedBy)?.causationId ?? null,
              },
      }));
  }

  async memory(tenant: string, input: unknown): Promise<MemoryView> {
    const t = parse(tenantSchema, tenant);
    const q = parse(memoryQuerySchema, input);
    await this.deps.runner.awaitPosition(q.minPosition, 'facts');
    const m = await this.deps.reader.memory(t, q.memoryId);
    if (!m) throw await this.missing(t, q.memoryId);
    return memoryView(m);
  }

  /**
   * The speaker's memories in the read paths at `now` that share a word (or a word's start) with
   * `words`, or hold an email or phone number for `shapes`: what a new statement is compared with
   * for resolution (see @factledger/domain resolution.ts). Newest said first.
   */
  async resembling(tenant: string, p: { speaker: string; words: string[]; shapes?: ('email' | 'phone')[]; now: Date; limit?: number; every?: boolean }): Promise<ResemblingView[]> {
    return (await this.deps.reader.resembling(parse(tenantSchema, tenant), p)).map(resemblingView);
  }

  /** The speaker's memories in the read paths at `now` said last (one message's): what a request to forget "that" names when its message said nothing before it. */
  async saidLast(tenant: string, p: { speaker: string; now: Date }): Promise<ResemblingView[]> {
    return (await this.deps.reader.saidLast(parse(tenantSchema, tenant), p)).map(resemblingView);
  }

  /** The keys of the speaker's facts in the read paths, most recently said first: what a model extractor is offered for reuse. */
  async knownKeys(tenant: string, p: { speaker: string; limit?: number }): Promise<{ subject: string; relation: string }[]> {
    return this.deps.reader.knownKeys(parse(tenantSchema, tenant), { ...p, now: this.deps.clock.now() });
  }

  async activeMemories(tenant: string, options: { limit?: number; minPosition?: number; status?: MemoryStatus } = {}): Promise<MemoryView[]> {
    const t = parse(tenantSchema, tenant);
    await this.deps.runner.awaitPosition(options.minPosition, 'facts');
    const rows = !options.status || options.status === 'active' ? await this.deps.reader.activeMemories(t, this.deps.clock.now(), options.limit) : await this.deps.reader.withStatus(t, options.status, options.limit);
    return rows.map(memoryView);
  }

  // ---- plumbing -------------------------------------------------------------------------

  /**
   * An assert planned: a triple under its key; prose under its text's own stream, unless it
   * restates earlier memories with another value (frame alignment, @factledger/domain
   * restatement.ts): then under the frame's key (or the restated fact's own), with the
   * retirements of what it replaces in the same append.
   */
  private async planAssert(tenant: string, a: z.output<typeof assertSchema>, frames: FramePlanning, memoryIds: () => string): Promise<PlannedOp> {
    const isFact = a.subject !== undefined;
    const text = a.text ?? `${a.subject} ${a.relation} ${a.value}`;
    const memoryId = memoryIds();
    // When it was said (a message's time, a document's date), and from when it holds: from then,
    // unless the statement said when it began. Without a said time, a statement of a start is taken
    // as said then (a document of that date), never later than now: what holds from next year was
    // said today.
    const now = this.deps.clock.now();
    const saidAt = a.saidAt ?? (a.validFrom && a.validFrom < now ? a.validFrom : now);
    const validFrom = a.validFrom ?? saidAt;
    const { plan, frame } = isFact ? { plan: null, frame: undefined } : await this.restatementOf(tenant, { memoryId, text, speaker: a.speaker, authority: a.authority, validFrom, saidAt }, frames);
    const key = isFact ? { subject: a.subject!, relation: a.relation!, scope: a.scope ?? {}, value: a.value!, cardinality: a.cardinality } : plan?.key;
    const streamId = key ? factStreamId(key) : proseStreamId(text);
    const command: MemoryCommand = {
      kind: 'AssertMemory',
      memoryId,
      memoryKind: key ? 'fact' : 'prose',
      subject: key?.subject ?? null,
      relation: key?.relation ?? null,
      scope: key?.scope ?? {},
      value: key?.value ?? null,
      text,
      type: a.type,
      speaker: a.speaker,
      source: a.source ?? null,
      authority: a.authority,
      cardinality: key?.cardinality,
      core: a.core,
      validFrom,
      validTo: a.validTo ?? plan?.validTo ?? null,
      mode: a.mode,
      saidAt,
      startStated: a.validFrom !== undefined,
      ...(a.dependsOn?.length ? { dependsOn: await this.premisesOf(tenant, a.dependsOn, now) } : {}),
    };
    const retired = new Set(plan?.retire.map((r) => r.memoryId) ?? []);
    const parts = isFact ? null : await this.partsChangedBy(tenant, { memoryId, text, speaker: a.speaker, validFrom, saidAt }, retired);
    const retirements = (plan?.retire ?? []).map((r) => ({
      streamId: plan!.streams.get(r.memoryId)!,
      command: { kind: 'RetractMemory', memoryId: r.memoryId, value: null, validFrom: r.validFrom, reason: r.reason, by: memoryId } satisfies MemoryCommand,
    }));
    return {
      planned: [{ streamId, command }, ...retirements, ...(parts?.planned ?? [])],
      ...(plan ? { restated: plan.decisions } : {}),
      ...(parts ? { replacedParts: parts.decisions } : {}),
      ...(frame ? { frame } : {}),
    };
  }

  /**
   * The memories a statement hangs on, each given by id (of this tenant) or by key (its current
   * version now); one that names nothing is a 400 naming it, and nothing is written.
   */
  private async premisesOf(tenant: string, given: NonNullable<z.output<typeof assertSchema>['dependsOn']>, now: Date): Promise<string[]> {
    const ids: string[] = [];
    const issues: { path: string; message: string }[] = [];
    for (const [i, p] of given.entries()) {
      if (typeof p === 'string') {
        if (await this.deps.reader.memory(tenant, p)) ids.push(p);
        else issues.push({ path: `dependsOn.${i}`, message: `no memory ${p} in this tenant` });
        continue;
      }
      const [current] = await this.deps.reader.valuesAt(tenant, factStreamId({ subject: p.subject, relation: p.relation, scope: p.scope ?? {} }), { validAt: now, knownAt: now });
      if (current) ids.push(current.memoryId);
      else issues.push({ path: `dependsOn.${i}`, message: `no current value of ${p.subject} / ${p.relation} in this tenant` });
    }
    if (issues.length) throw new InvalidInputError(issues);
    return ids;
  }

  /**
   * The statements inside earlier prose memories of the same speaker that a new text changes
   * (@factledger/domain turn-parts.ts), each memory's as one SupersedeParts command on its stream;
   * null when restatement is off, or when the text says no value holds now (then nothing is read).
   * A turn said after the new statement (an imported chat sent out of order) keeps its parts.
   */
  private async partsChangedBy(
    tenant: string,
    next: { memoryId: string; text: string; speaker: string; validFrom: Date; saidAt: Date },
    skip: ReadonlySet<string>,
  ): Promise<{ planned: Planned[]; decisions: PartDecision[] } | null> {
    if (this.deps.restatement === false || agentTurn(next.text, next.speaker)) return null;
    const language = languageOf(next.text);
    const changing = changingParts(next.text, language);
    if (changing.length === 0) return null;
    const now = this.deps.clock.now();
    const earlier = (await this.deps.reader.partsResembling(tenant, { speaker: next.speaker, groups: changing.map((p) => [...p.topic]), now })).filter(
      (m) => !skip.has(m.memoryId) && m.saidAt.getTime() <= next.saidAt.getTime(),
    );
    const changes = changedParts(changing, earlier, language);
    if (changes.length === 0) return null;
    const byMemory = new Map<string, typeof changes>();
    for (const c of changes) byMemory.set(c.memoryId, [...(byMemory.get(c.memoryId) ?? []), c]);
    const planned: Planned[] = [];
    const decisions: PartDecision[] = [];
    for (const [memoryId, cs] of byMemory) {
      const spans = [...new Map(cs.map((c) => [`${c.part.start}:${c.part.end}`, c.part])).values()];
      const first = cs[0]!;
      planned.push({
        streamId: earlier.find((m) => m.memoryId === memoryId)!.streamId,
        command: { kind: 'SupersedeParts', memoryId, parts: spans.map((p) => ({ start: p.start, end: p.end })), by: next.memoryId, validFrom: next.validFrom, at: now, rule: first.rule },
      });
      decisions.push({ memoryId, parts: spans, kind: first.kind, earlierValue: first.oldValue, nextValue: first.newValue, rule: first.rule });
    }
    return { planned, decisions };
  }

  /**
   * What a prose statement restates (plan: null when restatement is off or nothing is found to
   * align with), and, where the store checks it (an inline projection), the guard that the
   * memories the plan was made on are still those when it lands.
   */
  private async restatementOf(
    tenant: string,
    next: { memoryId: string; text: string; speaker: string; authority: number; validFrom: Date; saidAt: Date },
    frames: FramePlanning,
  ): Promise<{ plan: (RestatementPlan & { streams: Map<string, string> }) | null; frame?: PlannedFrame }> {
    if (this.deps.restatement === false) return { plan: null };
    const language = languageOf(next.text);
    const framed = frameStatement(next.text, language);
    if (!framed || framed.predicate < 0) return { plan: null };
    const now = this.deps.clock.now();
    const question = { text: next.text, stem: frameStem(framed), now };
    const guarded = this.deps.store.capabilities.inlineProjection && this.deps.inline !== undefined;
    const earlier = (guarded ? this.knownFrame(tenant, question, frames) : undefined) ?? (await this.deps.reader.restating(tenant, question));
    const frame: PlannedFrame | undefined = guarded
      ? { guard: { tenant, text: question.text, stem: question.stem, now: now.toISOString(), limit: RESTATING_LIMIT, expect: earlier.map((e) => e.memoryId) }, rows: earlier }
      : undefined;
    if (earlier.length === 0) return { plan: null, frame };
    const plan = planRestatement(
      next,
      earlier.map((e) => ({
        memoryId: e.memoryId,
        text: e.text,
        speaker: e.speaker,
        authority: e.authority,
        validFrom: new Date(e.validFrom),
        saidAt: new Date(e.saidAt),
        key: e.kind === 'fact' && e.subject !== null && e.relation !== null ? { subject: e.subject, relation: e.relation, scope: e.scope } : null,
      })),
      language,
    );
    return { plan: plan.decisions.length ? { ...plan, streams: new Map(earlier.map((e) => [e.memoryId, e.streamId])) } : null, frame };
  }

  /**
   * The memories a statement may restate without the look-up, when known (FramePlanning; of a
   * copy, those still valid at `now`). Undefined: look them up.
   */
  private knownFrame(tenant: string, question: { text: string; stem: string | null; now: Date }, frames: FramePlanning): MemoryRow[] | undefined {
    const known = frames.known.get(frameKey(question));
    if (known) return known;
    if (question.stem === null) return undefined;
    const now = question.now.getTime();
    const copy = this.frames.get(tenant, question.stem)?.filter((m) => m.validTo === null || m.validTo > now);
    return copy ?? (frames.guess ? [] : undefined);
  }

  /**
   * Plans and runs a write; when its append was refused because the memories a statement's
   * restatement was planned on changed (the frame guard, fl_apply_fact_changes), plans it again
   * on the memories the refusal brought back, at most MAX_CONFLICT_RETRIES more times.
   */
  private planAgainOnChangedFrames<T>(tenant: string, prose: boolean, go: (known: Map<string, MemoryRow[]>) => Promise<T>): Promise<T> {
    const attempts = async (): Promise<T> => {
      const known = new Map<string, MemoryRow[]>();
      for (let n = 0; ; n++) {
        try {
          return await go(known);
        } catch (error) {
          const changed = this.deps.inline?.changedFrames(error);
          if (!changed || n >= MAX_CONFLICT_RETRIES) throw error;
          for (const { guard, rows } of changed) {
            known.set(frameKey(guard), rows);
            if (guard.stem !== null) this.frames.put(tenant, guard.stem, rows);
          }
        }
      }
    };
    return prose ? this.inProseTurn(tenant, attempts) : attempts();
  }

  /**
   * A tenant's prose writes, one at a time in this process. Each lands a new memory in the frames
   * its statements belong to, which every other prose write planned on them at the same moment
   * must then plan again: eight clients ingesting like messages at once refused a third of them
   * after MAX_CONFLICT_RETRIES (found by the reliability suite). In turn, only writes from other
   * processes can still change a frame under a plan, and the retries above take those.
   * Structured facts and other tenants do not wait.
   */
  private inProseTurn<T>(tenant: string, work: () => Promise<T>): Promise<T> {
    const mine = (this.proseTurns.get(tenant) ?? Promise.resolve()).then(work);
    const done = mine.then(
      () => undefined,
      () => undefined,
    );
    this.proseTurns.set(tenant, done);
    void done.then(() => {
      if (this.proseTurns.get(tenant) === done) this.proseTurns.delete(tenant);
    });
    return mine;
  }

  private async planLifecycle(tenant: string, command: MemoryCommand & { memoryId: string }): Promise<PlannedOp> {
    return { planned: [{ streamId: (await this.locate(tenant, command.memoryId)).streamId, command }] };
  }

  /** One write of `kind` (its command id bound to it and its input, `meta`), planned as `op`. */
  private async single(tenant: string, kind: LedgerOpKind, meta: Meta, op: PlannedOp): Promise<WriteResult> {
    const r = await this.run(tenant, { ...bound(kind, meta), batch: batchOf(meta.batch, [op]) }, [op]);
    return { ...r.results[0]!, position: r.position, replayed: r.replayed };
  }

  /** Finds a memory's stream within the tenant; another tenant's memory is simply unknown. */
  private async locate(tenant: string, memoryId: string): Promise<MemoryRow> {
    let m = await this.deps.reader.memory(tenant, memoryId);
    if (!m) {
      await this.deps.runner.catchUp();
      m = await this.deps.reader.memory(tenant, memoryId);
    }
    if (!m) throw await this.missing(tenant, memoryId);
    return m;
  }

  /** Why a memory is not there: erased (and when), or unknown to this tenant. */
  private async missing(tenant: string, memoryId: string): Promise<Error> {
    const erased = await this.deps.reader.erased(tenant, memoryId);
    return erased ? new MemoryErasedError(memoryId, erased) : new UnknownMemoryError(memoryId);
  }

  private context(tenant: string, meta: Meta): AppendContext {
    return {
      tenant,
      commandId: meta.commandId ?? null,
      commandFingerprint: meta.commandId ? (meta.fingerprint ?? null) : null,
      causationId: meta.causationId ?? null,
      correlationId: meta.correlationId ?? null,
      batch: meta.batch ?? null,
      recordedAt: this.deps.clock.now(),
      actor: currentActor(),
    };
  }

  /** The events as they will be recorded, positions stood in for by -1, -2, … (see InlineProjection). */
  private pending(context: AppendContext, streamId: string, version: number, events: NewEvent[], offset: number): RecordedEvent[] {
    return events.map((e, i) => ({
      globalPosition: -(offset + i + 1),
      logPosition: { commit: '0', prepare: -(offset + i + 1) },
      tenant: context.tenant,
      streamId,
      streamVersion: version + 1 + i,
      eventId: e.eventId,
      type: e.type,
      data: e.data,
      commandId: context.commandId,
      causationId: context.causationId,
      correlationId: context.correlationId,
      batch: context.batch,
      recordedAt: context.recordedAt,
      actor: context.actor ?? null,
    }));
  }

  private toNew(e: MemoryEvent): NewEvent {
    return { eventId: this.newId(), type: e.type, data: e.data };
  }

  /**
   * The stream a command is decided on. First attempt: the copy this process keeps, if any; a
   * stream this process has no copy of and that only takes asserts is assumed new without a
   * read (a new key, or prose, whose stream id is the text's hash). Both are guesses that the
   * append's expected version checks: a wrong one costs a refused append (refused before any
   * event is written), which brings the stream back as it stands (fl_append), so the retry
   * decides on it without a read; a retry without it reads.
   */
  private async streamOf(tenant: string, streamId: string, planned: Planned[], guess: boolean, refused: Map<string, CachedStream>): Promise<CachedStream> {
    if (guess) {
      const cached = this.streams.take(tenant, streamId);
      if (cached) return cached;
      const mine = planned.filter((p) => p.streamId === streamId);
      if (mine.every((p) => p.command.kind === 'AssertMemory')) return { version: -1, events: [] };
    }
    // The stream a refused append brought back is as good as a read made at that moment.
    const current = refused.get(streamId);
    refused.delete(streamId);
    return current ?? this.deps.store.readStream(tenant, streamId);
  }

  /**
   * Puts the streams back after a successful append (or when nothing was appended), the written
   * ones with their new events at their real positions and the state already folded over them.
   */
  private remember(
    tenant: string,
    byStream: Map<string, { read: CachedStream; state: StreamState; events: NewEvent[] }>,
    parts: PendingStream[],
    result: AppendResult | null,
    rowsAfter?: unknown[],
  ): void {
    const pending = parts.flatMap((p) => p.pending);
    if (result && (result.duplicate || result.positions.length !== pending.length)) return;
    const rows = new Map(parts.map((p, i) => [p.pending[0]?.streamId ?? '', rowsAfter?.[i]]));
    const written = new Map<string, RecordedEvent[]>();
    pending.forEach((e, i) => {
      const position = result!.positions[i]!;
      const list = written.get(e.streamId) ?? [];
      list.push({ ...e, globalPosition: position, logPosition: { commit: '0', prepare: position } });
      written.set(e.streamId, list);
    });
    for (const [id, s] of byStream) {
      const mine = written.get(id) ?? [];
      const version = mine.length ? (result!.streamVersions[id] ?? s.read.version + mine.length) : s.read.version;
      // A stream that does not exist (or was only guessed new) and got nothing: nothing to keep.
      if (!mine.length && s.read.version < 0) continue;
      this.streams.put(tenant, id, { version, events: mine.length ? [...s.read.events, ...mine] : s.read.events, state: s.state, rows: mine.length ? rows.get(id) : s.read.rows });
    }
  }

  /**
   * Read, decide, append with the versions read; on a concurrent change to one of the streams,
   * decide again against the new state. A hand-written loop rather than a retry library: the
   * retry is part of the decision (re-read, re-decide), not a blind repeat of a call. Commands
   * on the same stream are decided in order, each against the state the previous one left.
   */
  private async run(tenant: string, meta: Meta, ops: PlannedOp[], attach?: WriteManyOptions['attach']): Promise<ManyWriteResult> {
    const planned = ops.flatMap((op) => op.planned);
    // Where each op's own command stands among the planned commands.
    const first: number[] = [];
    for (let i = 0, at = 0; i < ops.length; at += ops[i]!.planned.length, i++) first.push(at);
    const streamIds = [...new Set(planned.map((p) => p.streamId))];
    const refused = new Map<string, CachedStream>();
    return decideAgainOnConflict(async (attempt) => {
      const read = await Promise.all(streamIds.map((id) => this.streamOf(tenant, id, planned, attempt === 0, refused)));
      const byStream = new Map(streamIds.map((id, i) => [id, { read: read[i]!, state: read[i]!.state ?? replay(read[i]!.events.map(toStreamEvent)), events: [] as NewEvent[] }]));
      const decided = planned.map(({ streamId, command }) => {
        const s = byStream.get(streamId)!;
        const decision = decide(command, s.state);
        for (const event of decision.events) {
          const e = this.toNew(event);
          s.events.push(e);
          s.state = evolve(s.state, { eventId: e.eventId, batch: meta.batch ?? null, event });
        }
        return { outcome: decision.outcome, memoryId: decision.memoryId };
      });
      // One result an op: its own command's, with what it restated.
      const results: OpResult[] = ops.map((op, i) => ({
        ...decided[first[i]!]!,
        ...(op.restated ? { restated: op.restated } : {}),
        ...(op.replacedParts ? { replacedParts: op.replacedParts } : {}),
      }));
      const appends: StreamAppend[] = [...byStream.entries()]
        .filter(([, s]) => s.events.length > 0)
        .map(([streamId, s]) => ({ streamId, expectedVersion: s.read.version < 0 ? 'no-stream' : s.read.version, events: s.events }));
      appends.push(...(attach?.(results, meta.batch ?? null) ?? []));
      if (appends.length === 0) {
        // Nothing to append, so no claim: the id must still not name another command.
        if (meta.commandId && meta.fingerprint) {
          const claim = await this.deps.store.commandClaim(tenant, meta.commandId);
          if (claim?.fingerprint && claim.fingerprint !== meta.fingerprint) throw new CommandIdReusedError(meta.commandId);
        }
        this.remember(tenant, byStream, [], null);
        const last = Math.max(0, ...read.map((r) => r.events[r.events.length - 1]?.globalPosition ?? 0));
        return { position: last, replayed: false, results, batch: meta.batch ?? null };
      }
      const context = this.context(tenant, meta);
      // The read models take the new events in the same transaction (one round trip, one
      // commit) where the store can run that; the runner is the fallback when it cannot, or
      // when that could not be done.
      let offset = 0;
      const parts = appends.map((a) => {
        const known = byStream.get(a.streamId)?.read;
        const pending = this.pending(context, a.streamId, known?.version ?? -1, a.events, offset);
        offset += a.events.length;
        return { stream: known?.events ?? [], pending, rows: known?.rows };
      });
      const frames = ops.flatMap((op) => (op.frame ? [op.frame] : []));
      const inline = this.deps.store.capabilities.inlineProjection ? this.deps.inline?.inline(parts, frames) : undefined;
      const followUp = inline?.followUp ?? undefined;
      const result = await tracedAppend(this.deps.store, context, appends, followUp);
      refuseReusedCommandId(context, result);
      this.remember(tenant, byStream, parts, result, inline?.rowsAfter(result.positions));
      if (followUp && inline) {
        const after = inline.framesAfter(result.positions);
        frames.forEach(({ guard }, i) => {
          if (guard.stem !== null && after[i]) this.frames.put(tenant, guard.stem, after[i]!);
        });
      }
      if (!(followUp && this.deps.inline?.settled(result.followUp))) await this.deps.runner.catchUp();
      return { position: result.position, replayed: result.duplicate, results, batch: meta.batch ?? null };
    }, (conflict) => {
      if (conflict.current) refused.set(conflict.streamId, conflict.current);
    });
  }
}
