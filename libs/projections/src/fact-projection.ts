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

function signature(v: VersionState | undefined): string {
  if (!v) return 'none';
  const status = historyStatus(v);
  return status === null ? 'none' : `${status}|${v.validFrom}|${v.validTo}|${v.type}`;
}

export function projectFacts(loaded: LoadedRows, events: RecordedEvent[]): ProjectionChanges {
  const states = new Map<string, StreamState>();
  // When each memory was first recorded; the rows themselves are built once, at the end.
  const firstRecorded = new Map<string, Date>();
  for (const row of loaded.memories) {
    const key = streamKey(row.tenant, row.streamId);
    let state = states.get(key);
    if (!state) {
      state = { cardinality: row.cardinality, versions: new Map(), log: [], compensated: new Set() };
      states.set(key, state);
    }
    state.versions.set(row.memoryId, { ...row });
    firstRecorded.set(`${row.tenant}|${row.memoryId}`, row.recordedAt);
  }
  const open = new Map<string, HistoryRow>(loaded.openHistory.map((r) => [`${r.tenant}|${r.memoryId}`, r]));
  const fresh = new Set<HistoryRow>();
  const closes: HistoryClose[] = [];
  const drops: ProjectionChanges['drops'] = [];
  const changed = new Map<string, { version: VersionState; last: RecordedEvent }>();
  const watermarks = new Map(loaded.watermarks);
  const touchedStreams = new Map<string, { tenant: string; streamId: string; version: number }>();

  for (const recorded of events) {
    if (!isMemoryEvent(recorded)) continue;
    const skey = streamKey(recorded.tenant, recorded.streamId);
    if ((watermarks.get(skey) ?? -1) >= recorded.streamVersion) continue; // already applied
    watermarks.set(skey, recorded.streamVersion);
    touchedStreams.set(skey, { tenant: recorded.tenant, streamId: recorded.streamId, version: recorded.streamVersion });

    let state = states.get(skey);
    if (!state) {
      state = { cardinality: null, versions: new Map(), log: [], compensated: new Set() };
      states.set(skey, state);
    }
    const event = { type: recorded.type, data: recorded.data } as MemoryEvent;
    const memoryId = (event.data as { memoryId: string }).memoryId;
    const before = signature(state.versions.get(memoryId));
    evolve(state, { eventId: recorded.eventId, batch: recorded.batch, event });
    const version = state.versions.get(memoryId)!;
    const mkey = `${recorded.tenant}|${memoryId}`;
    if (!firstRecorded.has(mkey)) firstRecorded.set(mkey, recorded.recordedAt);
    changed.set(mkey, { version, last: recorded });

    if (signature(version) === before) continue;
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
        drops.push({ tenant: recorded.tenant, memoryId, openedBy: current.openedBy });
      } else {
        closes.push({
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
  const memories = [...changed].map(([mkey, { version, last }]): MemoryRow => ({
    ...version,
    tenant: last.tenant,
    streamId: last.streamId,
    status: statusOf(version, last.recordedAt.getTime()),
    recordedAt: firstRecorded.get(mkey)!,
    updatedAt: last.recordedAt,
    lastPosition: last.globalPosition,
  }));
  return {
    memories,
    closes,
    drops,
    inserts: [...fresh],
    watermarks: [...touchedStreams.values()],
  };
}
