/**
 * A memory stream's state and its fold: `evolve(state, event) → state` folds the event INTO the
 * state it is given and returns that same object (a fold, not a pure function: a rebuild folds
 * every event of the log through it, and a copy of a stream's versions per event would make a
 * stream's fold quadratic; a caller that must keep a state as it was folds into its own, `replay`
 * of its events or `initialState()`, never into one another part still reads). The decisions taken
 * on a state are fact.decider.ts's.
 */
import { isLiveEvent } from './erasure';
import type { FactOverruled, MemoryEvent, StreamEvent } from './fact.events';
import type { Cardinality, MemoryFields, MemoryStatus } from './memory';

/** Which part of a memory a lifecycle event changes; a later change of the same part overrides. */
export type Aspect = 'visibility' | 'type' | 'validity' | 'parts' | 'confirmation';

export interface VersionState extends MemoryFields {
  validFrom: number;
  validTo: number | null;
  /** When the statement was said (ms); null when its event does not say (written before it was recorded). */
  saidAt: number | null;
  /** The statement did not say when its value began: `validFrom` is only when it was said. */
  startUnknown: boolean;
  originalType: string;
  confirmations: number;
  quarantined: boolean;
  corrected: boolean;
  /** Retracted before it ever held: out of every period. */
  withdrawn: boolean;
  retracted: boolean;
  overruled: boolean;
  supersededBy: string | null;
  /** Statements inside the text that newer memories replaced (MemoryPartsSuperseded), in the order decided. */
  hiddenParts: HiddenPart[];
  /** The memories it hangs on (R32). */
  dependsOn: string[];
  /** Set while a memory it hangs on has changed since (MemoryUnconfirmed), until it is confirmed again. */
  unconfirmed: Unconfirmed | null;
}

/** Why a memory is no longer confirmed: the premise that changed, what took its place, and where in the log. */
export interface Unconfirmed {
  premise: string;
  by: string | null;
  event: string;
  position: number;
  depth: number;
}

/**
 * A span of a memory's text that a newer memory `by` replaced from `from` (valid time, ms) on, as
 * the ledger knew from `at` (ms) until a rollback gave it back at `undoneAt`. Kept, never dropped,
 * so that a read as of any time can tell whether the span was hidden then (`hiddenAt`).
 */
export interface HiddenPart {
  start: number;
  end: number;
  by: string;
  from: number;
  at: number;
  undoneAt: number | null;
}

/** The spans of a memory hidden for a read valid at `validAt` as known at `knownAt` (ms). */
export function hiddenAt(parts: readonly HiddenPart[], validAt: number, knownAt: number): HiddenPart[] {
  return parts.filter((p) => p.at <= knownAt && (p.undoneAt === null || p.undoneAt > knownAt) && p.from <= validAt);
}

/** A text with the spans left out (the rest as written, runs of spaces they leave made one). */
export function withoutParts(text: string, parts: readonly { start: number; end: number }[]): string {
  if (parts.length === 0) return text;
  let out = '';
  let at = 0;
  for (const p of [...parts].sort((a, b) => a.start - b.start)) {
    if (p.start < at) continue;
    out += text.slice(at, p.start);
    at = p.end;
  }
  return (out + text.slice(at)).replace(/[ \t]{2,}/gu, ' ').trim();
}

export interface StreamState {
  cardinality: Cardinality | null;
  versions: Map<string, VersionState>;
  /**
   * Every event of the stream in order, for rollback's override checks; null where no decision
   * is taken on the state (a projection folding the log) and the events need not be kept.
   */
  log: StreamEvent[] | null;
  /** Ids of events that a rollback has already compensated. */
  compensated: Set<string>;
}

export function initialState(): StreamState {
  return { cardinality: null, versions: new Map(), log: [], compensated: new Set() };
}

const OPEN = Number.POSITIVE_INFINITY;
const end = (v: VersionState): number => v.validTo ?? OPEN;

export function inTimeline(v: VersionState): boolean {
  return !v.quarantined && !v.corrected && !v.withdrawn && !v.overruled;
}

/** What a reader sees of a version at `now`. */
export function statusOf(v: VersionState, now: number): MemoryStatus {
  if (v.overruled) return 'overruled';
  if (v.quarantined) return 'quarantined';
  if (v.corrected || v.withdrawn || v.supersededBy || (v.retracted && end(v) <= now)) return 'retired';
  return 'active';
}

export function aspectOf(event: MemoryEvent): Aspect | null {
  switch (event.type) {
    case 'MemoryQuarantined':
    case 'MemoryRestored':
      return 'visibility';
    case 'MemoryRetyped':
      return 'type';
    case 'MemoryPartsSuperseded':
    case 'MemoryPartsRestored':
      return 'parts';
    case 'MemoryUnconfirmed':
    case 'MemoryConfirmed':
      return 'confirmation';
    case 'FactRetracted':
    case 'FactRetractionUndone':
    case 'FactSuperseded':
    case 'FactCorrected':
      return 'validity';
    default:
      return null;
  }
}

/** Folds `recorded` into `state`, in place, and returns `state` (see the module's note). */
export function evolve(state: StreamState, recorded: StreamEvent): StreamState {
  const { event } = recorded;
  state.log?.push(recorded);
  if ('compensates' in event.data && event.data.compensates) state.compensated.add(event.data.compensates);
  const version = (id: string): VersionState => {
    const v = state.versions.get(id);
    if (!v) throw new Error(`event ${recorded.eventId} refers to unknown version ${id}`);
    return v;
  };
  switch (event.type) {
    case 'FactAsserted':
    case 'FactOverruled': {
      // Field by field, not `{ ...rest }`: V8 builds an object from a rest pattern and a spread
      // over it about 30 times slower, and a rebuild folds every event of the log through here.
      const d = event.data as FactOverruled['data'];
      const overruled = event.type === 'FactOverruled';
      if (!state.cardinality) state.cardinality = d.cardinality;
      state.versions.set(d.memoryId, {
        memoryId: d.memoryId,
        kind: d.kind,
        subject: d.subject,
        relation: d.relation,
        scope: d.scope,
        value: d.value,
        text: d.text,
        type: d.type,
        speaker: d.speaker,
        source: d.source,
        authority: d.authority,
        cardinality: d.cardinality,
        core: d.core,
        validFrom: Date.parse(d.validFrom),
        validTo: d.validTo === null ? null : Date.parse(d.validTo),
        saidAt: d.saidAt === undefined ? null : Date.parse(d.saidAt),
        startUnknown: d.startUnknown === true,
        dependsOn: d.dependsOn ?? [],
        unconfirmed: null,
        originalType: d.type,
        confirmations: 1,
        quarantined: false,
        corrected: false,
        withdrawn: false,
        retracted: false,
        overruled,
        supersededBy: null,
        hiddenParts: [],
      });
      break;
    }
    case 'FactSuperseded': {
      const v = version(event.data.memoryId);
      v.validTo = Date.parse(event.data.validTo);
      v.supersededBy = event.data.by;
      break;
    }
    case 'FactCorrected':
      version(event.data.memoryId).corrected = true;
      break;
    case 'FactReinforced': {
      // Said again: confirmed again, whatever it hung on.
      const v = version(event.data.memoryId);
      v.confirmations = event.data.confirmations;
      v.unconfirmed = null;
      break;
    }
    case 'MemoryUnconfirmed': {
      const { premise, by, event: cause, position, depth } = event.data;
      version(event.data.memoryId).unconfirmed = { premise, by, event: cause, position, depth };
      break;
    }
    case 'MemoryConfirmed':
      version(event.data.memoryId).unconfirmed = null;
      break;
    case 'FactRetracted': {
      const v = version(event.data.memoryId);
      v.validTo = Date.parse(event.data.validTo);
      v.retracted = true;
      v.withdrawn = v.validTo <= v.validFrom;
      if (event.data.by) v.supersededBy = event.data.by;
      break;
    }
    case 'FactRetractionUndone': {
      const v = version(event.data.memoryId);
      v.validTo = event.data.validTo === null ? null : Date.parse(event.data.validTo);
      v.retracted = false;
      v.withdrawn = false;
      if (event.data.by && v.supersededBy === event.data.by) v.supersededBy = null;
      break;
    }
    case 'MemoryQuarantined':
      version(event.data.memoryId).quarantined = true;
      break;
    case 'MemoryRestored': {
      const v = version(event.data.memoryId);
      v.quarantined = false;
      v.validTo = event.data.validTo === null ? null : Date.parse(event.data.validTo);
      break;
    }
    case 'MemoryRetyped':
      version(event.data.memoryId).type = event.data.to;
      break;
    case 'MemoryPartsSuperseded': {
      const v = version(event.data.memoryId);
      const [from, at] = [Date.parse(event.data.validFrom), Date.parse(event.data.at)];
      // A new array, not a push: a loaded row's parts may be shared with the row it came from.
      v.hiddenParts = [...v.hiddenParts, ...event.data.parts.map((p) => ({ start: p.start, end: p.end, by: event.data.by, from, at, undoneAt: null }))];
      break;
    }
    case 'MemoryPartsRestored': {
      const v = version(event.data.memoryId);
      const at = Date.parse(event.data.at);
      const undone = (p: HiddenPart) => p.by === event.data.by && p.undoneAt === null && event.data.parts.some((q) => q.start === p.start && q.end === p.end);
      v.hiddenParts = v.hiddenParts.map((p) => (undone(p) ? { ...p, undoneAt: at } : p));
      break;
    }
  }
  return state;
}

/** The state a stream's events leave; what an erasure left of them (and its markers) says nothing. */
export function replay(events: Iterable<StreamEvent>): StreamState {
  let state = initialState();
  for (const e of events) if (isLiveEvent(e.event)) state = evolve(state, e);
  return state;
}
