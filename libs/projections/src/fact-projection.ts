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
import {
  type MemoryEvent,
  MEMORY_EVENT_TYPES,
  type MemoryStatus,
  normalizeTerm,
  statusOf,
  type StreamState,
  evolve,
  type VersionState,
} from '@factledger/domain';
import type { RecordedEvent } from '@factledger/store';

export interface MemoryRow extends VersionState {
  tenant: string;
  streamId: string;
  status: MemoryStatus;
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
export const isMemoryEvent = (e: RecordedEvent): boolean => KNOWN.has(e.type);
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
function memoryRow(v: VersionState, last: LastChange, recordedAt: Date): MemoryRow {
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
    originalType: v.originalType,
    confirmations: v.confirmations,
    quarantined: v.quarantined,
    corrected: v.corrected,
    withdrawn: v.withdrawn,
    retracted: v.retracted,
    overruled: v.overruled,
    supersededBy: v.supersededBy,
    tenant: last.tenant,
    streamId: last.streamId,
    status: statusOf(v, last.recordedAt.getTime()),
    recordedAt,
    updatedAt: last.recordedAt,
    lastPosition: last.globalPosition,
  };
}

/** What a memory row needs of the last event that changed it. */
interface LastChange {
  tenant: string;
  streamId: string;
  recordedAt: Date;
  globalPosition: number;
}

/**
 * The fold behind `projectFacts`, able to take the log in pieces: `add` as many times as there
 * are pages, then `changes` once. A rebuild streams the whole log through one fold and keeps
 * nothing of an event once it is folded (the streams' states keep no event log either).
 */
export class FactFold {
  private readonly states = new Map<string, StreamState>();
  /** When each memory was first recorded; the rows themselves are built once, at the end. */
  private readonly firstRecorded = new Map<string, Date>();
  private readonly open: Map<string, HistoryRow>;
  private readonly fresh = new Set<HistoryRow>();
  private readonly closes: HistoryClose[] = [];
  private readonly drops: ProjectionChanges['drops'] = [];
  private readonly changed = new Map<string, { version: VersionState; last: LastChange }>();
  private readonly watermarks: Map<string, number>;
  private readonly touchedStreams = new Map<string, { tenant: string; streamId: string; version: number }>();

  constructor(loaded: LoadedRows) {
    for (const row of loaded.memories) {
      const key = streamKey(row.tenant, row.streamId);
      let state = this.states.get(key);
      if (!state) {
        state = { cardinality: row.cardinality, versions: new Map(), log: null, compensated: new Set() };
        this.states.set(key, state);
      }
      state.versions.set(row.memoryId, { ...row });
      this.firstRecorded.set(`${row.tenant}|${row.memoryId}`, row.recordedAt);
    }
    this.open = new Map(loaded.openHistory.map((r) => [`${r.tenant}|${r.memoryId}`, r]));
    this.watermarks = new Map(loaded.watermarks);
  }

  add(events: readonly RecordedEvent[]): void {
    const { states, open, fresh, watermarks } = this;
    for (const recorded of events) {
      if (!isMemoryEvent(recorded)) continue;
      const skey = streamKey(recorded.tenant, recorded.streamId);
      if ((watermarks.get(skey) ?? -1) >= recorded.streamVersion) continue; // already applied
      watermarks.set(skey, recorded.streamVersion);
      const touched = this.touchedStreams.get(skey);
      if (touched) touched.version = recorded.streamVersion;
      else this.touchedStreams.set(skey, { tenant: recorded.tenant, streamId: recorded.streamId, version: recorded.streamVersion });

      let state = states.get(skey);
      if (!state) {
        state = { cardinality: null, versions: new Map(), log: null, compensated: new Set() };
        states.set(skey, state);
      }
      const event = { type: recorded.type, data: recorded.data } as MemoryEvent;
      const memoryId = (event.data as { memoryId: string }).memoryId;
      const prior = state.versions.get(memoryId);
      const before = prior ? { status: historyStatus(prior), validFrom: prior.validFrom, validTo: prior.validTo, type: prior.type } : null;
      evolve(state, { eventId: recorded.eventId, batch: recorded.batch, event });
      const version = state.versions.get(memoryId)!;
      const mkey = `${recorded.tenant}|${memoryId}`;
      const last = { tenant: recorded.tenant, streamId: recorded.streamId, recordedAt: recorded.recordedAt, globalPosition: recorded.globalPosition };
      const seen = this.changed.get(mkey);
      if (seen) {
        seen.version = version;
        seen.last = last;
      } else {
        this.changed.set(mkey, { version, last });
        if (!this.firstRecorded.has(mkey)) this.firstRecorded.set(mkey, recorded.recordedAt);
      }

      if (sameRow(before, version)) continue;
      const current = open.get(mkey);
      if (current) {
        const txTo = new Date(Math.max(current.txFrom.getTime(), recorded.recordedAt.getTime()));
        const neverSeen = txTo.getTime() === current.txFrom.getTime();
        if (fresh.has(current) && neverSeen) {
          fresh.delete(current);
        } else if (fresh.has(current)) {
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
        open.delete(mkey);
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
      fresh.add(opened);
      open.set(mkey, opened);
    }
  }

  changes(): ProjectionChanges {
    const memories = [...this.changed].map(([mkey, { version, last }]) => memoryRow(version, last, this.firstRecorded.get(mkey)!));
    return {
      memories,
      closes: this.closes,
      drops: this.drops,
      inserts: [...this.fresh],
      watermarks: [...this.touchedStreams.values()],
    };
  }
}
