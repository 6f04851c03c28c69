/**
 * Commands the decider understands, already validated: times are Dates, the cardinality is
 * what the caller said (or undefined to keep the key's own).
 */
import type { AssertMode, Cardinality, MemoryKind, Speaker } from './memory';

export interface AssertMemory {
  kind: 'AssertMemory';
  /** Id for the new version, if one is created. */
  memoryId: string;
  memoryKind: MemoryKind;
  subject: string | null;
  relation: string | null;
  scope: Record<string, string>;
  value: string | null;
  text: string;
  type: string;
  speaker: Speaker;
  source: string | null;
  authority: number;
  cardinality: Cardinality | undefined;
  core: boolean;
  validFrom: Date;
  validTo: Date | null;
  mode: AssertMode;
}

/** Stop a value being true from `validFrom`; by memory id, or by value within the key. */
export interface RetractMemory {
  kind: 'RetractMemory';
  memoryId: string | null;
  value: string | null;
  validFrom: Date;
  reason: string | null;
}

export interface QuarantineMemory {
  kind: 'QuarantineMemory';
  memoryId: string;
  reason: string | null;
}

export interface RestoreMemory {
  kind: 'RestoreMemory';
  memoryId: string;
}

export interface RetypeMemory {
  kind: 'RetypeMemory';
  memoryId: string;
  type: string;
}

export type MemoryCommand = AssertMemory | RetractMemory | QuarantineMemory | RestoreMemory | RetypeMemory;

export type Outcome =
  | 'created'
  | 'superseded'
  | 'corrected'
  | 'filled-history'
  | 'reinforced'
  | 'duplicate'
  | 'overruled'
  | 'retracted'
  | 'quarantined'
  | 'restored'
  | 'retyped'
  | 'unchanged';
