/**
 * The fact projection, pure: given the stored rows of the streams a batch of events touches,
 * it returns the row changes. It reuses the domain's `evolve`, so the meaning of every event
 * lives in one place; this file only turns version states into rows:
 *
 * - `fl_memories`: one row per version, its state now;
 * - `fl_fact_history`: bitemporal rows. When a version's visible state (status in the read
 *   paths, valid period, type) changes, its open row's transaction period closes at the
 *   event's recorded time and a new row opens, unless the version left every read path
 *   (corrected, withdrawn).
 */
import { type MemoryEvent, MEMORY_EVENT_TYPES, type MemoryStatus, normalizeTerm, statusOf, type StreamState, evolve, isErasedData, type VersionState } from '@factledger/domain';
import type { RecordedEvent } from '@factledger/store';

/**
 * A version as fl_memories holds it. Its said time is never null here: a version whose event did
 * not say it was said when it was recorded. Whether its start was said only the decider reads
 * (from the log): the read model does not keep it.
 */
export interface MemoryRow extends Omit<VersionState, 'saidAt' | 'startUnknown'> {
  tenant: string;
  streamId: string;
  status: MemoryStatus;
  /** When the statement was said (ms), as its event says, or else its first recorded time. */
  saidAt: number;
  recordedAt: Date;
  updatedAt: Date;
  lastPosition: number;
}

export type HistoryStatus = 'active' | 'quarantined' | 'overruled';

export interface HistoryRow {
  tenant: string;
  memoryId: string;
  openedBy: number;
  openedEventType: string;
  streamId: string;
  element: string;
  kind: string;
  cardinality: string;
  subject: string | null;
  relation: string | null;
  scope: Record<string, string>;
  value: string | null;
  text: string;
  type: string;
  speaker: string;
  source: string | null;
  status: HistoryStatus;
  validFrom: Date;
  validTo: Date | null;
  txFrom: Date;
  txTo: Date | null;
  closedBy: number | null;
  closedEventType: string | null;
}

export interface HistoryClose {
  tenant: string;
  memoryId: string;
  openedBy: number;
  txTo: Date;
  closedBy: number;
  closedEventType: string;
}

export interface LoadedRows {
  memories: MemoryRow[];
  openHistory: HistoryRow[];
  /** Last stream version applied, by `${tenant}|${streamId}`. */
  watermarks: Map<string, number>;
}

export interface ProjectionChanges {
  memories: MemoryRow[];
  closes: HistoryClose[];
  /** Stored rows closed at the instant they opened: no transaction time ever saw them. */
  drops: { tenant: string; memoryId: string; openedBy: number }[];
  inserts: HistoryRow[];
  watermarks: { tenant: string; streamId: string; version: number }[];
}

const KNOWN = new Set<string>(MEMORY_EVENT_TYPES);
/** A memory event that still says something (what an erasure left of one says nothing: skipped). */
export const isMemoryEvent = (e: RecordedEvent): boolean => KNOWN.has(e.type) && !isErasedData(e.data);
export const streamKey = (tenant: string, streamId: string): string => `${tenant}|${streamId}`;

/** The row a version shows in the history, or null when it holds over no valid time at all. */
function historyStatus(v: VersionState): HistoryStatus | null {
  if (v.validTo !== null && v.validTo <= v.validFrom) return null;
  if (v.overruled) return 'overruled';
  if (v.corrected || v.withdrawn) return null;
  return v.quarantined ? 'quarantined' : 'active';
}

/** Whether a version shows the same in the history as it did (status, valid period, type). */
function sameRow(before: { status: HistoryStatus | null; validFrom: number; validTo: number | null; type: string } | null, v: VersionState): boolean {
  const status = historyStatus(v);
  if (before === null || before.status === null) return status === null;
  return status === before.status && v.validFrom === before.validFrom && v.validTo === before.validTo && v.type === before.type;
}

export function projectFacts(loaded: LoadedRows, events: RecordedEvent[]): ProjectionChanges {
  const fold = new FactFold(loaded);
  fold.add(events);
  return fold.changes();
}

/**
 * A version's row. Field by field rather than `{ ...version }`: V8 spreads these objects many
 * times slower than it builds a literal, and a rebuild makes one row per memory of the log.
 */
function memoryRow(v: VersionState, stream: StreamFold, memory: MemoryFold): MemoryRow {
  return {
    memoryId: v.memoryId,
    kind: v.kind,
    subject: v.subject,
    relation: v.relation,
    scope: v.scope,
    value: v.value,
    text: v.text,
    type: v.type,
    speaker: v.speaker,
    source: v.source,
    authority: v.authority,
    cardinality: v.cardinality,
    core: v.core,
    validFrom: v.validFrom,
    validTo: v.validTo,
    saidAt: v.saidAt ?? memory.firstRecorded.getTime(),
    originalType: v.originalType,
    confirmations: v.confirmations,
    quarantined: v.quarantined,
    corrected: v.corrected,
    withdrawn: v.withdrawn,
    retracted: v.retracted,
    overruled: v.overruled,
    supersededBy: v.supersededBy,
    hiddenParts: v.hiddenParts,
    dependsOn: v.dependsOn,
    unconfirmed: v.unconfirmed,
    tenant: stream.tenant,
    streamId: stream.streamId,
    status: statusOf(v, memory.lastRecordedAt.getTime()),
    recordedAt: memory.firstRecorded,
    updatedAt: memory.lastRecordedAt,
    lastPosition: memory.lastPosition,
  };
}

/** A memory as the fold has it: its version after the last event that changed it, and when. */
interface MemoryFold {
  /** Null only for an open history row loaded without its memory row, until an event changes it. */
  version: VersionState | null;
  /** When it was first recorded. */
  firstRecorded: Date;
  lastRecordedAt: Date;
  lastPosition: number;
  /** Whether an event of this fold changed it (loaded rows that no event touched are not written again). */
  changed: boolean;
  /** Its open history row, if it has one. */
  open: HistoryRow | null;
}

/** One stream as the fold has it: everything a memory event of it needs, in one place. */
interface StreamFold {
  tenant: string;
  streamId: string;
  state: StreamState;
  /** Last stream version applied (-1: none). */
  watermark: number;
  touched: boolean;
  memories: Map<string, MemoryFold>;
  /** History rows this fold opened (closed since or not), in the order they opened. */
  fresh: Set<HistoryRow>;
}

/** A stream's rows once its last event is folded: nothing later can change them. */
export interface FinalStream {
  memories: MemoryRow[];
  history: HistoryRow[];
  watermark: { tenant: string; streamId: string; version: number } | null;
}

/**
 * The fold behind `projectFacts`, able to take the log in pieces: `add` as many times as there
 * are pages, then `changes` once. A rebuild streams the whole log through one fold and keeps
 * nothing of an event once it is folded (the streams' states keep no event log either); it can
 * also `take` a stream out as soon as its last event is folded, and write its rows early.
 */
export class FactFold {
  /** By tenant, then stream id: no key string is built per event. */
  private readonly streams = new Map<string, Map<string, StreamFold>>();
  private readonly closes: HistoryClose[] = [];
  private readonly drops: ProjectionChanges['drops'] = [];

  constructor(private readonly loaded: LoadedRows) {
    for (const row of loaded.memories) {
      const stream = this.stream(row.tenant, row.streamId, row.cardinality);
      // The fold decides nothing: whether a loaded version's start was said does not matter to it.
      const version: VersionState = { ...row, startUnknown: false };
      stream.state.versions.set(row.memoryId, version);
      const lastRecordedAt = row.updatedAt;
      stream.memories.set(row.memoryId, { version, firstRecorded: row.recordedAt, lastRecordedAt, lastPosition: row.lastPosition, changed: false, open: null });
    }
    for (const row of loaded.openHistory) {
      const memory = this.streams.get(row.tenant)?.get(row.streamId)?.memories.get(row.memoryId);
      if (memory) memory.open = row;
      else
        this.stream(row.tenant, row.streamId, null).memories.set(row.memoryId, {
          version: null,
          firstRecorded: row.txFrom,
          lastRecordedAt: row.txFrom,
          lastPosition: row.openedBy,
          changed: false,
          open: row,
        });
    }
  }

  private stream(tenant: string, streamId: string, cardinality: VersionState['cardinality'] | null): StreamFold {
    let ofTenant = this.streams.get(tenant);
    if (!ofTenant) this.streams.set(tenant, (ofTenant = new Map()));
    let stream = ofTenant.get(streamId);
    if (!stream) {
      stream = {
        tenant,
        streamId,
        state: { cardinality, versions: new Map(), log: null, compensated: new Set() },
        watermark: this.loaded.watermarks.get(streamKey(tenant, streamId)) ?? -1,
        touched: false,
        memories: new Map(),
        fresh: new Set(),
      };
      ofTenant.set(streamId, stream);
    }
    return stream;
  }

  add(events: readonly RecordedEvent[]): void {
    for (const recorded of events) {
      if (!isMemoryEvent(recorded)) continue;
      const stream = this.stream(recorded.tenant, recorded.streamId, null);
      if (stream.watermark >= recorded.streamVersion) continue; // already applied
      stream.watermark = recorded.streamVersion;
      stream.touched = true;

      const { state } = stream;
      const event = { type: recorded.type, data: recorded.data } as MemoryEvent;
      const memoryId = (event.data as { memoryId: string }).memoryId;
      const prior = state.versions.get(memoryId);
      const before = prior ? { status: historyStatus(prior), validFrom: prior.validFrom, validTo: prior.validTo, type: prior.type } : null;
      evolve(state, { eventId: recorded.eventId, batch: recorded.batch, event });
      const version = state.versions.get(memoryId)!;
      let memory = stream.memories.get(memoryId);
      if (!memory) {
        memory = { version, firstRecorded: recorded.recordedAt, lastRecordedAt: recorded.recordedAt, lastPosition: recorded.globalPosition, changed: true, open: null };
        stream.memories.set(memoryId, memory);
      } else {
        if (memory.version === null) memory.firstRecorded = recorded.recordedAt;
        memory.version = version;
        memory.lastRecordedAt = recorded.recordedAt;
        memory.lastPosition = recorded.globalPosition;
        memory.changed = true;
      }

      if (sameRow(before, version)) continue;
      const current = memory.open;
      if (current) {
        const txTo = new Date(Math.max(current.txFrom.getTime(), recorded.recordedAt.getTime()));
        const neverSeen = txTo.getTime() === current.txFrom.getTime();
        const mine = stream.fresh.has(current);
        if (mine && neverSeen) {
          stream.fresh.delete(current);
        } else if (mine) {
          current.txTo = txTo;
          current.closedBy = recorded.globalPosition;
          current.closedEventType = recorded.type;
        } else if (neverSeen) {
          this.drops.push({ tenant: recorded.tenant, memoryId, openedBy: current.openedBy });
        } else {
          this.closes.push({
            tenant: recorded.tenant,
            memoryId,
            openedBy: current.openedBy,
            txTo,
            closedBy: recorded.globalPosition,
            closedEventType: recorded.type,
          });
        }
        memory.open = null;
      }
      const status = historyStatus(version);
      if (status === null) continue;
      const opened: HistoryRow = {
        tenant: recorded.tenant,
        memoryId,
        openedBy: recorded.globalPosition,
        openedEventType: recorded.type,
        streamId: recorded.streamId,
        element: version.cardinality === 'many' ? normalizeTerm(version.value ?? '') : '',
        kind: version.kind,
        cardinality: version.cardinality,
        subject: version.subject,
        relation: version.relation,
        scope: version.scope,
        value: version.value,
        text: version.text,
        type: version.type,
        speaker: version.speaker,
        source: version.source,
        status,
        validFrom: new Date(version.validFrom),
        validTo: version.validTo === null ? null : new Date(version.validTo),
        txFrom: recorded.recordedAt,
        txTo: null,
        closedBy: null,
        closedEventType: null,
      };
      stream.fresh.add(opened);
      memory.open = opened;
    }
  }

  /**
   * Takes a stream out of the fold with the rows it leaves (null when the fold has nothing of
   * it). For a rebuild, once the stream's last event is folded: its rows are final.
   */
  take(tenant: string, streamId: string): FinalStream | null {
    const ofTenant = this.streams.get(tenant);
    const stream = ofTenant?.get(streamId);
    if (!stream) return null;
    ofTenant!.delete(streamId);
    return this.rowsOf(stream);
  }

  /** Takes out every stream left, in the order the fold first saw them (by tenant). */
  *rest(): Generator<FinalStream> {
    for (const ofTenant of this.streams.values()) {
      for (const [streamId, stream] of ofTenant) {
        ofTenant.delete(streamId);
        yield this.rowsOf(stream);
      }
    }
  }

  private rowsOf(stream: StreamFold): FinalStream {
    const memories: MemoryRow[] = [];
    for (const memory of stream.memories.values()) if (memory.changed) memories.push(memoryRow(memory.version!, stream, memory));
    return {
      memories,
      history: [...stream.fresh],
      watermark: stream.touched ? { tenant: stream.tenant, streamId: stream.streamId, version: stream.watermark } : null,
    };
  }

  changes(): ProjectionChanges {
    const changes: ProjectionChanges = { memories: [], closes: this.closes, drops: this.drops, inserts: [], watermarks: [] };
    for (const stream of [...this.streams.values()].flatMap((ofTenant) => [...ofTenant.values()])) {
      const rows = this.rowsOf(stream);
      for (const m of rows.memories) changes.memories.push(m);
      for (const h of rows.history) changes.inserts.push(h);
      if (rows.watermark) changes.watermarks.push(rows.watermark);
    }
    return changes;
  }
}
