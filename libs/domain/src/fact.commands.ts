/**
 * Commands the decider understands, already validated: times are Dates, the cardinality is
 * what the caller said (or undefined to keep the key's own).
 */
import type { AssertMode, Cardinality, MemoryFields, MemoryKind } from './memory';

export interface AssertMemory extends Omit<MemoryFields, 'kind' | 'cardinality'> {
  kind: 'AssertMemory';
  /** `memoryId` is the id for the new version, if one is created. */
  memoryKind: MemoryKind;
  cardinality: Cardinality | undefined;
  validFrom: Date;
  validTo: Date | null;
  mode: AssertMode;
  /** When the statement was said (a message's time, a document's date); absent: not known, nothing is recorded of it. */
  saidAt?: Date;
  /** Whether the statement said when it began; when not, `validFrom` is only the time it was said. */
  startStated?: boolean;
  /** The memories it hangs on (R32), recorded on its FactAsserted. */
  dependsOn?: string[];
}

/** Stop a value being true from `validFrom`; by memory id, or by value within the key. */
export interface RetractMemory {
  kind: 'RetractMemory';
  memoryId: string | null;
  value: string | null;
  validFrom: Date;
  reason: string | null;
  /** The memory that takes its place, when a statement replaced it (see FactRetracted). */
  by?: string | null;
}

export interface QuarantineMemory {
  kind: 'QuarantineMemory';
  memoryId: string;
  reason: string | null;
}

export interface RestoreMemory {
  kind: 'RestoreMemory';
  memoryId: string;
  /** Why, as the person who restored it said (recorded on the event). */
  reason?: string | null;
}

export interface RetypeMemory {
  kind: 'RetypeMemory';
  memoryId: string;
  type: string;
  /** Why, as the person who retyped it said (recorded on the event). */
  reason?: string | null;
}

/** Hide statements inside a prose memory that a newer memory replaced (see MemoryPartsSuperseded). */
export interface SupersedeParts {
  kind: 'SupersedeParts';
  memoryId: string;
  parts: { start: number; end: number }[];
  by: string;
  validFrom: Date;
  at: Date;
  rule: string;
}

/** A memory this one hangs on changed: mark it unconfirmed (see MemoryUnconfirmed). */
export interface MarkUnconfirmed {
  kind: 'MarkUnconfirmed';
  memoryId: string;
  premise: string;
  by: string | null;
  event: string;
  position: number;
  depth: number;
}

/** Someone says a memory marked unconfirmed still holds: the mark is cleared (MemoryConfirmed). */
export interface ConfirmMemory {
  kind: 'ConfirmMemory';
  memoryId: string;
  reason: string | null;
}

export type MemoryCommand = AssertMemory | RetractMemory | QuarantineMemory | RestoreMemory | RetypeMemory | SupersedeParts | MarkUnconfirmed | ConfirmMemory;

/** What a command did to its stream. */
export const OUTCOMES = [
  'created',
  'superseded',
  'corrected',
  'filled-history',
  'reinforced',
  'duplicate',
  'overruled',
  'retracted',
  'quarantined',
  'restored',
  'retyped',
  'parts-superseded',
  'unconfirmed',
  'confirmed',
  'unchanged',
] as const;
export type Outcome = (typeof OUTCOMES)[number];
