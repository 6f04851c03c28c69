/** The vocabulary of a memory: who said it, how a relation holds values, how a change is meant. */
export const SPEAKERS = ['user', 'assistant', 'tool', 'document'] as const;
export type Speaker = (typeof SPEAKERS)[number];

export const CARDINALITIES = ['one', 'many'] as const;
/** `one`: a new value supersedes the old; `many`: values accumulate as a set. */
export type Cardinality = (typeof CARDINALITIES)[number];

export const ASSERT_MODES = ['update', 'correction'] as const;
/** `update`: the world changed, the old value stays true in its period; `correction`: it never was. */
export type AssertMode = (typeof ASSERT_MODES)[number];

/** `fact`: a keyed triple; `prose`: text that does not reduce to one, kept as its own memory. */
export type MemoryKind = 'fact' | 'prose';

/** What a reader sees of a memory now. */
export const MEMORY_STATUSES = ['active', 'quarantined', 'retired', 'overruled'] as const;
export type MemoryStatus = (typeof MEMORY_STATUSES)[number];

/** The fields a memory is born with; they never change afterwards except `type` (retype). */
export interface MemoryFields {
  memoryId: string;
  kind: MemoryKind;
  subject: string | null;
  relation: string | null;
  scope: Record<string, string>;
  value: string | null;
  text: string;
  type: string;
  speaker: Speaker;
  source: string | null;
  authority: number;
  cardinality: Cardinality;
  core: boolean;
}
