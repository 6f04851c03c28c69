/**
 * The fact read model's rows in one place: the rows as PostgreSQL gives them (by a statement or as
 * jsonb) and their mappers to the projection's own rows, the history's columns, the as-of filter
 * every bitemporal read uses, and the types of restatement's look-up and its guard. The
 * projection (postgres-fact-projection.ts), its reader (fact-reader.ts) and the projection port
 * (projection.ts) all take them from here, and none of them from each other.
 */
import { type FactHistoryTable, type FactTables, type JsonRow, type MemoriesTable } from '@factledger/store';
import { type Kysely, type RawBuilder, type Selectable, sql } from 'kysely';
import type { HistoryRow, MemoryRow } from './fact-projection';

/** A moment of valid time and one of known (transaction) time: what a bitemporal read asks. */
export interface AsOf {
  validAt: Date;
  knownAt: Date;
}

/**
 * The bitemporal filter: the row's valid period holds `validAt` and its known period holds
 * `knownAt` (`alias` names the history's table in the statement, when it has one).
 */
export function asOfSql(at: AsOf, alias?: string): RawBuilder<unknown> {
  const column = (name: 'valid' | 'tx') => sql.raw(alias ? `${alias}.${name}` : name);
  return sql`${column('valid')} @> ${at.validAt.toISOString()}::timestamptz AND ${column('tx')} @> ${at.knownAt.toISOString()}::timestamptz`;
}

/** An fl_memories row as read: by a statement, or as jsonb (to_jsonb, fl_restating, a refused follow-up's detail). */
export type MemoryDbRow = Selectable<MemoriesTable> | JsonRow<Selectable<MemoriesTable>>;

export function memoryFromDb(r: MemoryDbRow): MemoryRow {
  return {
    tenant: r.tenant,
    memoryId: r.memory_id,
    streamId: r.stream_id,
    kind: r.kind,
    subject: r.subject,
    relation: r.relation,
    scope: r.scope,
    value: r.value,
    text: r.text,
    type: r.type,
    originalType: r.original_type,
    speaker: r.speaker,
    source: r.source,
    authority: r.authority,
    cardinality: r.cardinality,
    core: r.core,
    status: r.status,
    validFrom: new Date(r.valid_from).getTime(),
    validTo: r.valid_to === null ? null : new Date(r.valid_to).getTime(),
    confirmations: r.confirmations,
    quarantined: r.quarantined,
    corrected: r.corrected,
    withdrawn: r.withdrawn,
    retracted: r.retracted,
    overruled: r.overruled,
    supersededBy: r.superseded_by,
    hiddenParts: r.hidden_parts,
    dependsOn: r.depends_on ?? [],
    unconfirmed: r.unconfirmed ?? null,
    saidAt: new Date(r.said_at).getTime(),
    recordedAt: new Date(r.recorded_at),
    updatedAt: new Date(r.updated_at),
    lastPosition: Number(r.last_position),
  };
}

/** The columns of fl_fact_history as read (historyFromDb), its periods as their bounds. */
// prettier-ignore
const HISTORY_FIELDS = [
  'tenant', 'memory_id', 'opened_by', 'opened_event_type', 'stream_id', 'element', 'kind', 'cardinality', 'subject', 'relation',
  'scope', 'value', 'text', 'type', 'speaker', 'source', 'status', 'closed_by', 'closed_event_type',
] as const;
const HISTORY_BOUNDS = [sql<Date>`lower(valid)`.as('valid_from'), sql<Date | null>`upper(valid)`.as('valid_to'), sql<Date>`lower(tx)`.as('tx_from'), sql<Date | null>`upper(tx)`.as('tx_to')] as const;

/** The history's rows as historyFromDb reads them: callers add the filter and the order. */
export const selectHistory = (db: Kysely<FactTables>) => db.selectFrom('fl_fact_history').select([...HISTORY_FIELDS, ...HISTORY_BOUNDS]);

/**
 * The same columns for a statement written in SQL, as one piece of text: a hot read compiles it
 * with every call, and a list of identifiers costs a node each (the as-of read measured 8% slower).
 */
export const HISTORY_COLUMNS = sql.raw(`${HISTORY_FIELDS.join(', ')}, lower(valid) AS valid_from, upper(valid) AS valid_to, lower(tx) AS tx_from, upper(tx) AS tx_to`);

/** An fl_fact_history row as HISTORY_COLUMNS reads it, or as jsonb. */
export type HistorySelected = Pick<Selectable<FactHistoryTable>, (typeof HISTORY_FIELDS)[number]> & { valid_from: Date; valid_to: Date | null; tx_from: Date; tx_to: Date | null };
export type HistoryDbRow = HistorySelected | JsonRow<HistorySelected>;

export function historyFromDb(r: HistoryDbRow): HistoryRow {
  return {
    tenant: r.tenant,
    memoryId: r.memory_id,
    openedBy: Number(r.opened_by),
    openedEventType: r.opened_event_type,
    streamId: r.stream_id,
    element: r.element,
    kind: r.kind,
    cardinality: r.cardinality,
    subject: r.subject,
    relation: r.relation,
    scope: r.scope,
    value: r.value,
    text: r.text,
    type: r.type,
    speaker: r.speaker,
    source: r.source,
    status: r.status,
    validFrom: new Date(r.valid_from),
    validTo: r.valid_to === null ? null : new Date(r.valid_to),
    txFrom: new Date(r.tx_from),
    txTo: r.tx_to === null ? null : new Date(r.tx_to),
    closedBy: r.closed_by === null ? null : Number(r.closed_by),
    closedEventType: r.closed_event_type,
  };
}

export const isoOrNull = (d: Date | null): string | null => (d ? isoOf(d.getTime()) : null);

/**
 * A time's ISO text, remembered: a rebuild writes the same few instants over and over (a batch's
 * events share their recorded time), and each new string is garbage to collect.
 */
const isoTexts = new Map<number, string>();
export function isoOf(ms: number): string {
  let text = isoTexts.get(ms);
  if (text === undefined) {
    if (isoTexts.size >= 10_000) isoTexts.clear();
    text = new Date(ms).toISOString();
    isoTexts.set(ms, text);
  }
  return text;
}

/** What restatement's look-up asks (FactReader.restating, fl_restating): the statement, its subject and verb as written (null: none found), and the moment. */
export interface RestatingQuestion {
  text: string;
  stem: string | null;
  now: Date;
  limit?: number;
}

/** The most memories restatement's look-up hands back. */
export const RESTATING_LIMIT = 50;

/**
 * A restatement plan's guard, checked by the fact projection's inline follow-up under the append
 * lock (fl_apply_fact_changes): the look-up's question, and the memories (ids) the plan was made
 * on. When fl_restating no longer finds exactly those, the append is refused (FollowUpRefused).
 */
export interface FrameGuard {
  tenant: string;
  text: string;
  stem: string | null;
  /** The moment asked about, ISO 8601. */
  now: string;
  limit: number;
  expect: string[];
}

/** A restatement plan's frame guard, with the memories its look-up found (those `expect` names). */
export interface PlannedFrame {
  guard: FrameGuard;
  rows: MemoryRow[];
}

export interface ErasedMemory {
  erasureId: string;
  erasedAt: string;
  position: number;
  actor: string | null;
}

/** What resolution compares of an earlier memory (FactReader.resembling). */
export type ResemblingMemory = Pick<MemoryRow, 'memoryId' | 'kind' | 'subject' | 'relation' | 'scope' | 'text' | 'type' | 'validFrom' | 'saidAt'>;

/** The columns `resembling` and `saidLast` read: what resolution and forgetting compare. */
export type ResemblingRow = Pick<Selectable<MemoriesTable>, 'memory_id' | 'kind' | 'subject' | 'relation' | 'scope' | 'text' | 'type' | 'valid_from' | 'said_at'>;

export const resemblingFromDb = (r: ResemblingRow): ResemblingMemory => ({
  memoryId: r.memory_id,
  kind: r.kind,
  subject: r.subject,
  relation: r.relation,
  scope: r.scope,
  text: r.text,
  type: r.type,
  validFrom: new Date(r.valid_from).getTime(),
  saidAt: new Date(r.said_at).getTime(),
});
