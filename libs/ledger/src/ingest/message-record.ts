/**
 * What an ingest takes (a message: its text, speaker, source, id and time), what it answers, and
 * how the answer is read back from the message's record in the log (MessageIngested).
 */
import { type MessageIngested, type ResolvedMemory, type RestatementDecision, SPEAKERS, STORED_OUTCOMES } from '@factledger/domain';
import { z } from 'zod';
import { isoTime } from '../ledger.schemas';
import type { IngestResult } from '../views';

/** A message's id: what `messageId` may be when a message is sent or read back. */
export const messageIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/, 'letters, digits, ".", "_", ":" or "-", at most 200 characters');

export const ingestMessageSchema = z
  .object({
    text: z.string().trim().min(1, 'text must not be empty').max(20_000),
    speaker: z.enum(SPEAKERS).default('user'),
    source: z.string().min(1).max(1000).optional(),
    messageId: messageIdSchema.optional(),
    at: isoTime.optional(),
    correlationId: z.string().max(200).optional(),
  })
  .strict();

export type IngestMessageInput = z.input<typeof ingestMessageSchema>;

export function resultOf(record: MessageIngested['data'], position: number, replayed: boolean, actor: string | null): IngestResult {
  return {
    messageId: record.messageId,
    position,
    replayed,
    actor,
    kind: record.kind,
    topic: record.topic,
    language: record.language,
    speaker: record.speaker,
    source: record.source,
    triage: record.triage,
    candidates: record.candidates,
    stored: [...new Set(record.candidates.filter((c) => c.outcome && STORED_OUTCOMES.has(c.outcome) && c.memoryId).map((c) => c.memoryId!))],
    resolved: record.resolved ?? { retired: 0, keptUnsure: 0, batch: null },
    erased: (record as { erased?: string }).erased ?? null,
    forgotten: record.forgotten ?? null,
  };
}

/** A frame alignment's decision as the message record lists it beside resolution's. */
export function asResolved(d: RestatementDecision): ResolvedMemory {
  return {
    memoryId: d.memoryId,
    text: d.text,
    action: d.action === 'replace' ? 'supersede' : 'keep-both',
    rule: `frame alignment: ${d.rule}`,
    scores: { slotOverlap: 0, sharedClasses: [], valueKind: null, oldValue: d.earlierValue, newValue: d.nextValue },
    effect: d.effect === 'retracted' || d.effect === 'withdrawn' ? d.effect : 'kept',
    frame: { frame: d.frame, holds: d.holds, score: d.score, effect: d.effect },
  };
}

/**
 * Whether a record is of this message: its text, speaker and source, and its time when one is
 * given. An erased record (its words gone) can no longer tell: any retry is taken as the same.
 */
export function sameMessage(record: MessageIngested['data'], m: z.output<typeof ingestMessageSchema>): boolean {
  if ((record as { erased?: string }).erased) return true;
  return (
    // A record that left out what it was asked to forget cannot hold the text to compare.
    (record.forgotten !== undefined || record.text === m.text) &&
    record.speaker === m.speaker &&
    record.source === (m.source ?? `message:${record.messageId}`) &&
    (m.at === undefined || record.at === m.at.toISOString())
  );
}
