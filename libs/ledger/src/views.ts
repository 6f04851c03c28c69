/**
 * The ledger's answers, each in one home: a zod schema (what the HTTP API documents, under the
 * name its `.openapi()` gives) and the type inferred from it (what the ledger returns, the Nest
 * module hands on and the server sends), with the mappers from the read model's rows.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { FRAME_HOLDS, MEMORY_STATUSES, OUTCOMES, ROLLBACK_RESULTS } from '@factledger/domain';
import type { HistoryRow, MemoryRow, ResemblingMemory } from '@factledger/projections';
import type { RecordedEvent } from '@factledger/store';
import { z } from 'zod';

extendZodWithOpenApi(z);

export const instantSchema = z.string().openapi({ format: 'date-time', example: '2026-03-01T00:00:00.000Z' });
export const scopeSchema = z.record(z.string(), z.string());

export const restatementDecisionSchema = z
  .object({
    memoryId: z.string().openapi({ description: 'The earlier memory the statement was aligned with.' }),
    text: z.string().openapi({ description: "The earlier memory's text." }),
    action: z.enum(['replace', 'keep-both']),
    holds: z.enum(FRAME_HOLDS).openapi({ description: 'What the frame was judged to hold: one value, a set, or unsure.' }),
    rule: z.string().openapi({ description: 'The rule that decided, in words.' }),
    frame: z.string().openapi({ description: 'The shared frame, the value\'s place marked "…".', example: 'staging database runs on …' }),
    earlierValue: z.string(),
    nextValue: z.string(),
    score: z.number().openapi({ description: "Share of the two statements' tokens the frame covers." }),
    effect: z.enum(['retracted', 'withdrawn', 'filled-history', 'kept']),
  })
  .openapi('RestatementDecision');
export type RestatementDecisionView = z.infer<typeof restatementDecisionSchema>;

export const partDecisionSchema = z
  .object({
    memoryId: z.string().openapi({ description: 'The earlier memory whose statements were replaced; its text stays whole on record.' }),
    parts: z
      .array(z.object({ start: z.number().int(), end: z.number().int(), text: z.string() }))
      .openapi({ description: 'The replaced statements: spans of its text, left out of what recall shows from now on.' }),
    kind: z.string().openapi({ description: 'The shape of the value: quantity, count, date, time, version, ordinal.' }),
    earlierValue: z.string(),
    nextValue: z.string(),
    rule: z.string(),
  })
  .openapi('PartDecision');
export type PartDecision = z.infer<typeof partDecisionSchema>;

export const writeResultSchema = z
  .object({
    outcome: z.enum(OUTCOMES).openapi({ description: 'What the write did: created, superseded, reinforced, duplicate, quarantined, …', example: 'created' }),
    memoryId: z.string(),
    position: z.number().int().openapi({ description: 'Log position of the write; pass it as minPosition to read your own write.' }),
    replayed: z.boolean().openapi({ description: 'The commandId was seen before; nothing new was appended.' }),
    restated: z.array(restatementDecisionSchema).optional().openapi({
      description:
        'For prose: the earlier memories it restates with another value (frame alignment), and what was done to each; replaced ones carry the batch label `restatement:<memoryId>` unless the write gave one.',
    }),
    replacedParts: z.array(partDecisionSchema).optional().openapi({
      description: 'For prose: statements inside earlier memories of the same speaker that it changes (a value said to hold now, of the same shape and topic); in the same batch as the restatements.',
    }),
  })
  .openapi('WriteResult');
export type WriteResult = z.infer<typeof writeResultSchema>;

export const rollbackResultSchema = z
  .object({
    batch: z.string(),
    position: z.number().int(),
    items: z.array(
      z.object({
        eventId: z.string(),
        memoryId: z.string(),
        change: z.string(),
        result: z.enum(ROLLBACK_RESULTS),
        detail: z.string(),
      }),
    ),
  })
  .openapi('RollbackResult');
export type RollbackResult = z.infer<typeof rollbackResultSchema>;

export const memoryViewSchema = z
  .object({
    memoryId: z.string(),
    kind: z.string(),
    subject: z.string().nullable(),
    relation: z.string().nullable(),
    scope: scopeSchema,
    value: z.string().nullable(),
    text: z.string(),
    type: z.string(),
    originalType: z.string(),
    speaker: z.string(),
    source: z.string().nullable(),
    authority: z.number().int(),
    cardinality: z.string(),
    core: z.boolean(),
    status: z.enum(MEMORY_STATUSES).openapi({ example: 'active' }),
    validFrom: instantSchema,
    validTo: instantSchema.nullable(),
    confirmations: z.number().int(),
    saidAt: instantSchema.openapi({ description: "When the statement was said (a message's time, a document's date); `recordedAt` is when the ledger learned it." }),
    recordedAt: instantSchema,
    supersededBy: z.string().nullable(),
    hiddenParts: z.array(z.object({ start: z.number().int(), end: z.number().int(), text: z.string(), by: z.string(), from: z.string(), at: z.string(), undoneAt: z.string().nullable() })).openapi({
      description: 'Statements inside its text that newer memories replaced (the text stays whole): recall leaves them out from `from` (valid time), as known from `at` until `undoneAt` (a rollback).',
    }),
    dependsOn: z.array(z.string()).openapi({ description: 'The memories it hangs on: when one changes, it is marked unconfirmed (or a rule applies).' }),
    unconfirmed: z.object({ premise: z.string(), by: z.string().nullable(), event: z.string(), position: z.number().int(), depth: z.number().int() }).nullable().openapi({
      description:
        'While a memory it hangs on (`premise`) has changed since (`event` at log `position`, `by` the memory that took its place): it stays in the read paths, shown with why. Null when confirmed.',
    }),
  })
  .openapi('Memory');
export type MemoryView = z.infer<typeof memoryViewSchema>;

export const versionFields = {
  memoryId: z.string(),
  value: z.string().nullable(),
  text: z.string(),
  type: z.string(),
  speaker: z.string(),
  source: z.string().nullable(),
  validFrom: instantSchema,
  validTo: instantSchema.nullable(),
  recordedAt: instantSchema,
};
export const versionViewSchema = z.object(versionFields).openapi('FactVersion');
export type VersionView = z.infer<typeof versionViewSchema>;

export const factViewSchema = z
  .object({
    subject: z.string(),
    relation: z.string(),
    scope: scopeSchema,
    cardinality: z.string().nullable(),
    value: z.string().nullable().openapi({ description: 'The value of a `one` key (null when none holds); null for a set, see `values`.' }),
    values: z.array(z.string()),
    versions: z.array(versionViewSchema),
    validAt: instantSchema,
    knownAt: instantSchema,
  })
  .openapi('Fact');
export type FactView = z.infer<typeof factViewSchema>;

export const subjectFactSchema = z.object({ ...versionFields, relation: z.string().nullable(), scope: scopeSchema });
export const subjectViewSchema = z.object({ subject: z.string(), facts: z.array(subjectFactSchema), validAt: instantSchema, knownAt: instantSchema }).openapi('Subject');
export type SubjectView = z.infer<typeof subjectViewSchema>;

const causedBy = z.object({
  position: z.number().int(),
  event: z.string(),
  actor: z
    .string()
    .nullable()
    .openapi({ description: 'Who caused the event: the id of the API key of the request (never its secret), or the actor id a host application passed; null when nobody was named.' }),
  batch: z.string().nullable().openapi({ description: 'Its batch label: what `rollback` takes to undo it.' }),
  causation: z.string().nullable().openapi({ description: 'The causation id the write carried (what caused it: a message, a ticket); null when none.' }),
});
const closedBy = causedBy.extend({
  reason: z.string().nullable().openapi({ description: "The closing event's reason (a retraction by resolution names the message and the rule)." }),
  by: z
    .string()
    .nullable()
    .openapi({ description: 'The memory that took its place: the superseding or correcting version, or the statement that replaced it (a restatement, a change in other words).' }),
});
export const historyEntrySchema = z.object({
  memoryId: z.string(),
  value: z.string().nullable(),
  text: z.string(),
  type: z.string(),
  status: z.string().openapi({ description: "The memory's status now, as GET /memories/{id} gives it: active, retired, quarantined or overruled." }),
  shownAs: z.string().openapi({ description: 'How this row shows its version over its valid period while it was known: active, quarantined or overruled.' }),
  validFrom: instantSchema,
  validTo: instantSchema.nullable(),
  knownFrom: instantSchema.nullable(),
  knownTo: instantSchema.nullable(),
  openedBy: causedBy,
  closedBy: closedBy.nullable(),
});
/** One row of a bitemporal history: a version over its valid period while it was known. */
export type HistoryView = z.infer<typeof historyEntrySchema>;
export const historyViewSchema = z.object({ subject: z.string(), relation: z.string(), scope: scopeSchema, entries: z.array(historyEntrySchema) }).openapi('History');
export type KeyHistoryView = z.infer<typeof historyViewSchema>;
export const memoryHistorySchema = z.object({ memoryId: z.string(), entries: z.array(historyEntrySchema) }).openapi('MemoryHistory');
export type MemoryHistoryView = z.infer<typeof memoryHistorySchema>;

export const batchViewSchema = z
  .object({
    batch: z.string(),
    events: z.array(
      z.object({
        position: z.number().int(),
        type: z.string(),
        memoryId: z.string().nullable(),
        recordedAt: instantSchema,
        actor: z.string().nullable().openapi({ description: 'The id of the API key that wrote it, or the actor id a host passed; null when nobody was named.' }),
        reason: z.string().nullable(),
      }),
    ),
    memories: z.array(memoryViewSchema).openapi({ description: 'Each memory the events touched, as it stands now.' }),
  })
  .openapi('Batch');
export type BatchView = z.infer<typeof batchViewSchema>;

// ---- the audit, messages, erasures, answers and their verification --------------------------------------

/** What a claim can be found to be, checked against memory. */
export const VERDICTS = ['supported', 'distorted', 'stale', 'fabricated'] as const;
/** The languages triage tells apart. */
const LANGUAGE_CODES = ['en', 'ko', 'other'] as const;

// ---- the audit: what the ledger believed, and what changed in it ---------------------------------

export const believedSchema = z.object({
  ...versionFields,
  kind: z.string().openapi({ description: '`fact` (under a key) or `prose`.' }),
  subject: z.string().nullable(),
  relation: z.string().nullable(),
  scope: scopeSchema,
});
export type BelievedView = z.infer<typeof believedSchema>;
export const beliefViewSchema = z
  .object({
    knownAt: instantSchema,
    validAt: instantSchema,
    subject: z.string().nullable(),
    memories: z.array(believedSchema).openapi({ description: 'Every memory in the read paths at (validAt, knownAt), by subject, relation, scope and value.' }),
    truncated: z.boolean().openapi({ description: 'True when there were more than `limit`.' }),
  })
  .openapi('Belief');
export type BeliefView = z.infer<typeof beliefViewSchema>;
export const changeEventSchema = z.object({
  position: z.number().int(),
  type: z.string(),
  memoryId: z.string().nullable(),
  recordedAt: instantSchema,
  batch: z.string().nullable().openapi({ description: 'Its batch label: what `rollback` takes to undo it.' }),
  actor: z.string().nullable().openapi({ description: 'The id of the API key that wrote it (never its secret), or the actor id a host passed; null when nobody was named.' }),
});
export type ChangeEventView = z.infer<typeof changeEventSchema>;
export const beliefChangeSchema = z.object({
  kind: z.string(),
  subject: z.string().nullable(),
  relation: z.string().nullable(),
  scope: scopeSchema,
  before: z.array(believedSchema),
  after: z.array(believedSchema),
  events: z.array(changeEventSchema).openapi({ description: 'The events recorded on this key between the two moments; none when only valid time moved (a value that began or ended).' }),
});
export type BeliefChangeView = z.infer<typeof beliefChangeSchema>;
export const beliefDiffSchema = z
  .object({
    from: instantSchema,
    to: instantSchema,
    validAt: instantSchema.nullable(),
    subject: z.string().nullable(),
    changes: z.array(beliefChangeSchema),
    truncated: z.boolean(),
  })
  .openapi('BeliefDiff');
export type BeliefDiffView = z.infer<typeof beliefDiffSchema>;

// ---- messages --------------------------------------------------------------------------------

export const gateFindingSchema = z.object({ gate: z.string().openapi({ example: 'role-play guard' }), passed: z.boolean(), detail: z.string() });

export const resolvedMemorySchema = z
  .object({
    memoryId: z.string(),
    text: z.string(),
    action: z.enum(['supersede', 'correct', 'retract', 'keep-both']),
    rule: z.string().openapi({ description: 'Why, in words: the slot, the values and the cue it rested on.' }),
    scores: z.object({
      slotOverlap: z.number().int(),
      sharedClasses: z.array(z.string()),
      valueKind: z.string().nullable(),
      oldValue: z.string().nullable(),
      newValue: z.string().nullable(),
    }),
    effect: z.enum(['retracted', 'withdrawn', 'kept']).openapi({ description: "retracted from the statement's valid time; withdrawn (a correction: it never held); kept." }),
    frame: z
      .object({
        frame: z.string(),
        holds: z.enum(FRAME_HOLDS),
        score: z.number(),
        effect: z.enum(['retracted', 'withdrawn', 'filled-history', 'kept']),
      })
      .optional()
      .openapi({ description: 'When frame alignment decided (the same sentence with one value changed): the shared frame, what it holds, the alignment score, and the effect.' }),
  })
  .openapi('ResolvedMemory');

export const ingestedCandidateSchema = z
  .object({
    verdict: z.enum(['admitted', 'rejected', 'retyped']),
    proposedType: z.string().openapi({ description: 'The type extraction proposed first.' }),
    type: z.string().nullable().openapi({ description: 'The type it was stored as; null when rejected.' }),
    gates: z.array(gateFindingSchema).openapi({ description: 'Every gate it met, passed or failed, in order.' }),
    reason: z.string(),
    memoryKind: z.enum(['fact', 'prose']),
    subject: z.string().nullable(),
    relation: z.string().nullable(),
    value: z.string().nullable(),
    text: z.string(),
    validFrom: instantSchema,
    rule: z.string().openapi({ description: 'The extraction rule that produced it.' }),
    outcome: z.enum(OUTCOMES).nullable().openapi({ description: 'What the write did (created, superseded, reinforced, duplicate, …); null when nothing was written.' }),
    memoryId: z.string().nullable(),
    resolution: z
      .array(resolvedMemorySchema)
      .optional()
      .openapi({ description: 'Earlier memories this candidate changes in other words (retired) or resembles without enough evidence (kept); absent when resolution did not run.' }),
  })
  .openapi('IngestedCandidate');

export const ingestResultSchema = z
  .object({
    messageId: z.string(),
    position: z.number().int().openapi({ description: 'Log position of the record and its memories; pass it as minPosition to read them.' }),
    replayed: z.boolean().openapi({ description: 'This messageId was ingested before; this is the stored record and nothing new was appended.' }),
    actor: z.string().nullable().openapi({ description: "Who sent the message: the API key id of the request, or a host application's actor id." }),
    kind: z.enum(['inform', 'ask']).openapi({ description: 'A question (ask) is never a source of memories.' }),
    topic: z.string().openapi({ example: 'home' }),
    language: z.enum(LANGUAGE_CODES),
    speaker: z.string(),
    source: z.string(),
    triage: z.array(z.string()).openapi({ description: 'Why the message was judged informing or asking.' }),
    candidates: z.array(ingestedCandidateSchema),
    stored: z.array(z.string()).openapi({ description: 'The memories the message is now in: new versions or confirmations of existing ones.' }),
    resolved: z
      .object({ retired: z.number().int(), keptUnsure: z.number().int(), batch: z.string().nullable() })
      .openapi({ description: 'Earlier memories retired because the message changed them in other words, resembling ones kept as unsure, and the batch label that rolls the retirements back.' }),
    erased: z.string().nullable().openapi({ description: 'The erasure that emptied this record (it produced an erased memory): every text is gone, ids and decisions stay.' }),
    forgotten: z
      .object({
        requests: z
          .number()
          .int()
          .openapi({ description: 'Sentences of the user\'s that asked to forget ("please erase that from your memory", "don\'t keep my passport number", "그거 지워줘"): stored nowhere.' }),
        statements: z.number().int().openapi({ description: 'Statements of this message a request named ("My PIN is 1234. Forget that."): in no memory, and left out of the record\'s text.' }),
        memoryIds: z.array(z.string()).openapi({
          description: "The earlier memories taken away: the user's that a request named, and the assistant's turns that repeat a value of them (an erased fact with every version of it).",
        }),
        how: z.enum(['erased', 'quarantined']).openapi({
          description: 'erased: their words are gone, as POST /erasures leaves them; quarantined: a log that cannot be rewritten (KurrentDB) keeps their words, out of every read and context.',
        }),
        erasureId: z.string().nullable(),
        ambiguous: z.array(z.object({ memoryIds: z.array(z.string()) })).openapi({
          description:
            'Requests that named several memories with nothing to tell them apart (say "my address" for a home and an office address): nothing was taken for them; erase the one meant by id, or say which.',
        }),
        unmatched: z.number().int().openapi({ description: 'Requests that named nothing the user had said.' }),
      })
      .nullable()
      .openapi({
        description:
          "What the message's requests to forget took away (ids and counts, never words); null when it made none. Over the chat only the user's own memories (and the assistant's repeats of them) are reached: see docs/security.md, Erasure.",
      }),
  })
  .openapi('IngestResult');
export type IngestResult = z.infer<typeof ingestResultSchema>;

// ---- erasure ---------------------------------------------------------------------------------

export const erasureResultSchema = z
  .object({
    erasureId: z.string().nullable().openapi({ description: 'Null when there was nothing to erase (nothing was recorded).' }),
    target: z.enum(['memory', 'subject', 'all']),
    position: z.number().int().openapi({ description: "The erasure record's log position (for a memory erased before: that erasure's)." }),
    erasedAt: z.string().nullable(),
    memoryIds: z.array(z.string()).openapi({ description: 'The memories erased now.' }),
    events: z.number().int().openapi({ description: 'Events whose data was rewritten.' }),
    messages: z.number().int().openapi({ description: 'Message records emptied or trimmed.' }),
    answers: z.array(z.string()).openapi({ description: 'Answers that cited an erased memory: their words are gone, and they are reopened.' }),
    alreadyErased: z.boolean(),
  })
  .openapi('ErasureResult');
export type ErasureResult = z.infer<typeof erasureResultSchema>;

export const citationSchema = z.object({
  memoryId: z.string(),
  value: z.string().nullable(),
  text: z.string(),
  speaker: z.string(),
  erased: z.boolean().optional().openapi({ description: 'The cited memory was erased since, and its words with it.' }),
});

export const answerWriteResultSchema = z
  .object({
    answerId: z.string(),
    position: z.number().int(),
    changed: z.boolean().openapi({ description: 'False when the command changed nothing (already open, not open, or a replayed command id).' }),
  })
  .openapi('AnswerWriteResult');
export type AnswerWriteResult = z.infer<typeof answerWriteResultSchema>;

export const answerSchema = z
  .object({
    answerId: z.string(),
    question: z.string(),
    text: z.string(),
    citations: z.array(citationSchema).openapi({ description: 'The memory versions it cited, as they were when it was recorded.' }),
    status: z.enum(['answered', 'reopened', 'reviewed']),
    reopened: z
      .object({ answerId: z.string(), memoryId: z.string(), reason: z.string(), cause: z.object({ position: z.number().int(), event: z.string() }), at: instantSchema })
      .nullable()
      .openapi({ description: 'Why the re-review saga reopened it, while it waits for review.' }),
    recordedAt: instantSchema,
    position: z.number().int(),
  })
  .openapi('Answer');
/** An answer as recorded, with its citations as they were. */
export type Answer = z.infer<typeof answerSchema>;

export const citationNowSchema = citationSchema.extend({
  now: z.object({ status: z.string(), supersededBy: z.string().nullable() }).nullable().openapi({ description: 'What became of the cited version; null when it is gone.' }),
});

export const answerViewSchema = answerSchema.extend({ citations: z.array(citationNowSchema) }).openapi('AnswerWithCitations');
/** An answer with what became of each version it cited. */
export type AnswerView = z.infer<typeof answerViewSchema>;

export const claimVerdictSchema = z
  .object({
    verdict: z.enum(VERDICTS),
    says: z.string(),
    memory: z.object({ memoryId: z.string(), value: z.string().nullable(), text: z.string(), speaker: z.string(), status: z.string() }).nullable(),
    current: z.array(z.object({ memoryId: z.string(), value: z.string().nullable(), text: z.string() })).openapi({ description: 'For stale and distorted: what memory says now.' }),
    reason: z.string(),
  })
  .openapi('ClaimVerdict');
export type ClaimVerdict = z.infer<typeof claimVerdictSchema>;

export const verificationSchema = z.object({ verdicts: z.array(claimVerdictSchema) }).openapi('Verification');

export const revisionSchema = z
  .object({
    answer: z.string(),
    revisions: z.number().int().openapi({ description: 'How many times the model rewrote the answer.' }),
    verdicts: z.array(claimVerdictSchema),
    settled: z.boolean().openapi({ description: 'Every claim of the final answer is supported.' }),
  })
  .openapi('Revision');
export type Revision = z.infer<typeof revisionSchema>;

export type Verdict = ClaimVerdict['verdict'];

// ---- from the read model's rows ------------------------------------------------------------

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
export const isoDate = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** What resolution compares of an earlier memory (Ledger.resembling). */
export type ResemblingView = Pick<MemoryView, 'memoryId' | 'kind' | 'subject' | 'relation' | 'scope' | 'text' | 'type' | 'validFrom' | 'saidAt'>;

/** A memory as resolution and forgetting compare it, with its times as ISO text. */
export const resemblingView = (m: ResemblingMemory): ResemblingView => ({ ...m, validFrom: iso(m.validFrom)!, saidAt: iso(m.saidAt)! });

export function memoryView(m: MemoryRow): MemoryView {
  return {
    memoryId: m.memoryId,
    kind: m.kind,
    subject: m.subject,
    relation: m.relation,
    scope: m.scope,
    value: m.value,
    text: m.text,
    type: m.type,
    originalType: m.originalType,
    speaker: m.speaker,
    source: m.source,
    authority: m.authority,
    cardinality: m.cardinality,
    core: m.core,
    status: m.status,
    validFrom: iso(m.validFrom)!,
    validTo: iso(m.validTo),
    confirmations: m.confirmations,
    saidAt: iso(m.saidAt)!,
    recordedAt: m.recordedAt.toISOString(),
    supersededBy: m.supersededBy,
    hiddenParts: m.hiddenParts.map((p) => ({ start: p.start, end: p.end, text: m.text.slice(p.start, p.end), by: p.by, from: iso(p.from)!, at: iso(p.at)!, undoneAt: iso(p.undoneAt) })),
    dependsOn: m.dependsOn,
    unconfirmed: m.unconfirmed,
  };
}

/** A string field of an event's data (its memory, reason, the memory that took its place), or null. */
export function eventText(e: RecordedEvent | undefined, name: 'memoryId' | 'reason' | 'by'): string | null {
  const v = (e?.data as Record<string, unknown> | null | undefined)?.[name];
  return typeof v === 'string' ? v : null;
}

export function versionView(h: HistoryRow): VersionView {
  return {
    memoryId: h.memoryId,
    value: h.value,
    text: h.text,
    type: h.type,
    speaker: h.speaker,
    source: h.source,
    validFrom: h.validFrom.toISOString(),
    validTo: isoDate(h.validTo),
    recordedAt: h.txFrom.toISOString(),
  };
}
