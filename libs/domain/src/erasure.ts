/**
 * Erasure, pure: what an erasure leaves of each event that held an erased memory's words.
 *
 * Erasing a memory erases its whole stream: every version of the same fact (its earlier and later
 * values are the same personal data), or the prose memory with its confirmations. What is left:
 *
 * - an event of an erased stream keeps only its memory id and the erasure's id (`erased`); its
 *   position, type, time, stream and actor stay in the log's row;
 * - a message record that produced an erased memory keeps its shape (ids, outcomes, decisions,
 *   times) with every text emptied; one that only compared a candidate with an erased memory loses
 *   that memory's text;
 * - an answer that cited an erased memory loses its question, its text and that citation's words
 *   (they were said on the strength of it); its other citations stay.
 *
 * Each erased stream then gets one `MemoryErased` per memory, which bumps the stream's version (a
 * process deciding on an old copy of it conflicts and reads it again), takes the memory out of the
 * read models, and reopens the answers that cited it.
 */
import type { Citation } from './answer';
import { InvalidInputError } from './errors';
import type { MessageIngested } from './message/message.events';

export type ErasureTarget = { memoryId: string } | { subject: string } | { all: true };

export const MEMORY_ERASED = 'MemoryErased';

/** Appended to an erased stream, once per memory of it. */
export interface MemoryErased {
  type: 'MemoryErased';
  data: { memoryId: string; erasureId: string };
}

/** The stream that records one erasure: `erasure-<id>`. */
export const erasureStreamId = (erasureId: string): string => `erasure-${erasureId}`;

/** Whether an event's data is what an erasure left of it (the stream's whole content is gone). */
export function isErasedData(data: unknown): boolean {
  return typeof (data as { erased?: unknown } | null)?.erased === 'string';
}

/** Whether an event still says something about a memory: not a tombstone, not an erasure marker. */
export function isLiveEvent(event: { type: string; data: unknown }): boolean {
  return event.type !== MEMORY_ERASED && !isErasedData(event.data);
}

export function targetKind(target: ErasureTarget): 'memory' | 'subject' | 'all' {
  return 'memoryId' in target ? 'memory' : 'subject' in target ? 'subject' : 'all';
}

/**
 * Keys of a message record whose values are structure, not content (ids, decisions, times,
 * labels): kept when the record is emptied. Every other string becomes ''.
 */
const STRUCTURE = new Set([
  'messageId',
  'memoryId',
  'speaker',
  'at',
  'validFrom',
  'kind',
  'memoryKind',
  'language',
  'topic',
  'triage',
  'triagedBy',
  'verdict',
  'outcome',
  'action',
  'effect',
  'rule',
  'type',
  'proposedType',
  'batch',
  'scores',
  'gate',
  'passed',
  // What a request to forget did: ids and counts, never words (message.events.ts Forgotten).
  'forgotten',
]);

/** Every string in `value` emptied, except under a STRUCTURE key; numbers, booleans and nulls stay. */
export function emptyTexts(value: unknown, key?: string): unknown {
  if (key !== undefined && STRUCTURE.has(key)) return value;
  if (typeof value === 'string') return '';
  if (Array.isArray(value)) return value.map((v) => emptyTexts(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, emptyTexts(v, k)]));
  return value;
}

/**
 * What erasing `erased` (memory ids) leaves of one event, or null when the event holds nothing of
 * them. `ofErasedStream`: the event belongs to one of the erased streams.
 */
export function redactEvent(event: { type: string; data: unknown }, erased: ReadonlySet<string>, erasureId: string, ofErasedStream: boolean): unknown | null {
  if (event.type === MEMORY_ERASED) return null;
  if (ofErasedStream) {
    if (isErasedData(event.data)) return null;
    const memoryId = (event.data as { memoryId?: unknown } | null)?.memoryId;
    return typeof memoryId === 'string' ? { memoryId, erased: erasureId } : { erased: erasureId };
  }
  if (event.type === 'MessageIngested') return redactMessage(event.data as MessageIngested['data'], erased, erasureId);
  if (event.type === 'AnswerRecorded') return redactAnswer(event.data as { answerId: string; question: string; text: string; citations: Citation[] }, erased, erasureId);
  return null;
}

function redactMessage(data: MessageIngested['data'], erased: ReadonlySet<string>, erasureId: string): unknown | null {
  if (isErasedData(data)) return null;
  if (data.candidates.some((c) => c.memoryId !== null && erased.has(c.memoryId))) {
    return { ...(emptyTexts(data) as object), erased: erasureId };
  }
  let changed = false;
  const candidates = data.candidates.map((c) => {
    if (!c.resolution?.some((r) => erased.has(r.memoryId) && r.text !== '')) return c;
    changed = true;
    return { ...c, resolution: c.resolution.map((r) => (erased.has(r.memoryId) ? { ...r, text: '', erased: true } : r)) };
  });
  return changed ? { ...data, candidates } : null;
}

function redactAnswer(data: { answerId: string; question: string; text: string; citations: Citation[] }, erased: ReadonlySet<string>, erasureId: string): unknown | null {
  const hit = data.citations.some((c) => erased.has(c.memoryId) && !(c as { erased?: boolean }).erased);
  if (!hit) return null;
  return {
    ...data,
    question: '',
    text: '',
    citations: data.citations.map((c) => (erased.has(c.memoryId) ? { memoryId: c.memoryId, value: null, text: '', speaker: c.speaker, erased: true } : c)),
    erased: erasureId,
  };
}

/** The erasure target as a caller gives it: exactly one of memoryId, subject, all. */
export function erasureTargetOf(input: { memoryId?: string; subject?: string; all?: boolean }): ErasureTarget {
  const given = [input.memoryId !== undefined, input.subject !== undefined, input.all !== undefined].filter(Boolean).length;
  if (given !== 1) throw new InvalidInputError([{ path: '', message: 'give exactly one of memoryId, subject or all' }]);
  if (input.memoryId !== undefined) return { memoryId: input.memoryId };
  if (input.subject !== undefined) return { subject: input.subject };
  if (input.all !== true) throw new InvalidInputError([{ path: 'all', message: 'all must be true to erase every memory of the tenant' }]);
  return { all: true };
}
