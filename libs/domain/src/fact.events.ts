/**
 * The events of a memory stream (a fact key or a prose memory). Each one says exactly what
 * changed, so projections apply them without re-deciding anything. Times are ISO 8601 strings;
 * a `validTo` of null means the period is open.
 */
import type { MemoryFields, Speaker } from './memory';

/**
 * When a statement was said, beside its valid period: `saidAt`, the time of the message or
 * document that said it (absent on events written before it was recorded: then the event's own
 * recorded time); `startUnknown`, only when true: the statement did not say when its value began,
 * so `validFrom` is only when it was said (a present-tense "I live in Seattle").
 */
export interface WhenSaid {
  saidAt?: string;
  startUnknown?: true;
}

/**
 * The memories a statement hangs on (R32): when one of them changes, the statement is no longer
 * confirmed (MemoryUnconfirmed). Absent on statements that hang on nothing.
 */
export interface HangsOn {
  dependsOn?: string[];
}

export interface FactAsserted {
  type: 'FactAsserted';
  data: MemoryFields & WhenSaid & HangsOn & { validFrom: string; validTo: string | null };
}

/** A lower-authority source offered a different value; kept on record, not applied. */
export interface FactOverruled {
  type: 'FactOverruled';
  data: MemoryFields & WhenSaid & HangsOn & { validFrom: string; validTo: string | null; overruledBy: string };
}

/**
 * A newer value took over: the old version's valid period closes at `validTo`. A `validTo` at the
 * version's own start leaves it an empty period: as known now it held at no instant (a stale view
 * the user said before the change they told of later).
 */
export interface FactSuperseded {
  type: 'FactSuperseded';
  data: { memoryId: string; by: string; validTo: string };
}

/** The old version was never true: it leaves every as-of read from now on (known-time closes). */
export interface FactCorrected {
  type: 'FactCorrected';
  data: { memoryId: string; by: string };
}

/** The same value was said again: one more confirmation, no new version. */
export interface FactReinforced {
  type: 'FactReinforced';
  data: { memoryId: string; text: string; speaker: Speaker; source: string | null; confirmations: number };
}

/**
 * The value stops being true at `validTo`. When `validTo` is not after the version's start
 * the version is withdrawn entirely. `previousValidTo` lets a rollback reopen the period.
 * `by` names the memory that took its place when a statement replaced it (a restatement, a
 * change said in other words); absent for a plain retraction.
 */
export interface FactRetracted {
  type: 'FactRetracted';
  data: { memoryId: string; validTo: string; previousValidTo: string | null; reason: string | null; by?: string };
}

/** A rollback reopened what a retraction had closed; `by` repeats the retraction's, whose link it removes. */
export interface FactRetractionUndone {
  type: 'FactRetractionUndone';
  data: { memoryId: string; validTo: string | null; compensates: string; by?: string };
}

export interface MemoryQuarantined {
  type: 'MemoryQuarantined';
  data: { memoryId: string; reason: string | null; compensates?: string };
}

/**
 * Back in the read paths. `validTo` is the period it returns with (clipped where a newer
 * version took over meanwhile); the versions it now supersedes get their own events.
 */
export interface MemoryRestored {
  type: 'MemoryRestored';
  data: { memoryId: string; validTo: string | null; reason?: string; compensates?: string };
}

export interface MemoryRetyped {
  type: 'MemoryRetyped';
  data: { memoryId: string; from: string; to: string; reason?: string; compensates?: string };
}

/**
 * Statements inside a prose memory (spans of its text, `turnParts`) that a newer memory `by`
 * replaced from `validFrom` on (a value said to hold now, of the same shape and topic): the text
 * stays on record whole; readers leave the parts out of what they show as current. `at` is when
 * it was decided (the ledger's time), so that a read as of an earlier time shows the parts.
 */
export interface MemoryPartsSuperseded {
  type: 'MemoryPartsSuperseded';
  data: { memoryId: string; parts: { start: number; end: number }[]; by: string; validFrom: string; at: string; rule: string; compensates?: string };
}

/** A rollback gave back parts a supersession had hidden (from `at` on); `by` and the spans repeat the supersession's. */
export interface MemoryPartsRestored {
  type: 'MemoryPartsRestored';
  data: { memoryId: string; parts: { start: number; end: number }[]; by: string; at: string; compensates: string };
}

/**
 * A memory this one hangs on changed (`premise`, superseded, retracted, corrected, quarantined, or
 * itself unconfirmed, at log position `position`, by `event`), so what this one says is no longer
 * confirmed: it stays in the read paths, shown with why. `by` is the memory that took the
 * premise's place, if one did. No words of either memory are kept here (an erasure of the premise
 * leaves nothing of it behind): readers show them from the memories themselves. `depth` counts the
 * links from the first change (a chain stops at its limit).
 */
export interface MemoryUnconfirmed {
  type: 'MemoryUnconfirmed';
  data: { memoryId: string; premise: string; by: string | null; event: string; position: number; depth: number; compensates?: string };
}

/** Confirmed again (said again, or a rollback of the change that unconfirmed it). */
export interface MemoryConfirmed {
  type: 'MemoryConfirmed';
  data: { memoryId: string; reason: string | null; compensates?: string };
}

export type MemoryEvent =
  | FactAsserted
  | FactOverruled
  | FactSuperseded
  | FactCorrected
  | FactReinforced
  | FactRetracted
  | FactRetractionUndone
  | MemoryQuarantined
  | MemoryRestored
  | MemoryRetyped
  | MemoryPartsSuperseded
  | MemoryPartsRestored
  | MemoryUnconfirmed
  | MemoryConfirmed;

export type MemoryEventType = MemoryEvent['type'];

export const MEMORY_EVENT_TYPES: readonly MemoryEventType[] = [
  'FactAsserted',
  'FactOverruled',
  'FactSuperseded',
  'FactCorrected',
  'FactReinforced',
  'FactRetracted',
  'FactRetractionUndone',
  'MemoryQuarantined',
  'MemoryRestored',
  'MemoryRetyped',
  'MemoryPartsSuperseded',
  'MemoryPartsRestored',
  'MemoryUnconfirmed',
  'MemoryConfirmed',
];

/** An event as read back from a stream: what the decider needs of the store's envelope. */
export interface StreamEvent {
  eventId: string;
  batch: string | null;
  event: MemoryEvent;
}
