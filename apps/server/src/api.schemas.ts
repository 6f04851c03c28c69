/**
 * HTTP-only shapes: path parameters, query strings as they arrive, and the response bodies the
 * OpenAPI document describes. Inputs themselves are the ledger's own schemas (@factledger/ledger).
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import type { AnswerView, AnswerWriteResult, BeliefChangeView, BeliefDiffView, BeliefView, BelievedView, ChangeEventView, ClaimVerdict, ErasureResult, IngestResult, Revision } from '@factledger/ledger';
import type { AnswerRow } from '@factledger/projections';
import {
  auditDiffQuerySchema,
  auditQuerySchema,
  batchQuerySchema,
  erasureSchema,
  factQuerySchema,
  historyQuerySchema,
  ingestMessageSchema,
  memoryQuerySchema,
  quarantineSchema,
  restoreSchema,
  confirmSchema,
  retractSchema,
  retypeSchema,
  rollbackSchema,
  subjectQuerySchema,
  tenantSchema,
  instantSchema,
  scopeSchema,
  versionFields,
} from '@factledger/ledger';
import { z } from 'zod';

extendZodWithOpenApi(z);

const minPosition = memoryQuerySchema.shape.minPosition;

/** GET /memories: the ledger takes these as plain options, so the server validates them. */
export const listMemoriesQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).optional().openapi({ description: 'At most this many, newest first (default 100).' }),
    status: z.enum(['active', 'quarantined', 'retired', 'overruled']).optional().openapi({ description: 'Default `active`: the memories in the read paths now. Any other status: the memories that have it, whatever their valid time.' }),
    minPosition,
  })
  .strict();

// ---- path parameters ------------------------------------------------------------------------

const tenantParam = tenantSchema.openapi({ description: 'Every route is scoped to one tenant; nothing crosses.', example: 'acme' });
export const tenantParams = z.object({ tenant: tenantParam });
export const memoryParams = z.object({ tenant: tenantParam, memoryId: z.string().min(1).max(200) });
export const batchParams = z.object({ tenant: tenantParam, batch: z.string().min(1).max(200) });
export const subjectParams = z.object({ tenant: tenantParam, subject: z.string().min(1).max(500) });
export const traceParams = z.object({ tenant: tenantParam, id: z.string().uuid() });
// The id a message was ingested under: the same rule the ingest input applies to a caller's own id.
export const messageParams = z.object({ tenant: tenantParam, messageId: ingestMessageSchema.shape.messageId.unwrap() });

// ---- bodies taken as the ledger defines them, registered by name for the document ----------

// The ingest schema is defined without a component name (the ledger does not depend on OpenAPI for it).
export const ingestMessageBody = ingestMessageSchema.openapi('IngestMessageInput');

// ---- bodies whose memoryId / batch comes from the path -------------------------------------

export const quarantineBody = quarantineSchema.omit({ memoryId: true }).openapi('QuarantineBody');
export const restoreBody = restoreSchema.omit({ memoryId: true }).openapi('RestoreBody');
export const confirmBody = confirmSchema.omit({ memoryId: true }).openapi('ConfirmBody');
export const retypeBody = retypeSchema.omit({ memoryId: true }).openapi('RetypeBody');
// retractSchema carries a refinement, which zod will not pick from: take its fields instead.
const retract = retractSchema.shape;
export const retractMemoryBody = z
  .object({
    validFrom: retract.validFrom,
    reason: retract.reason,
    commandId: retract.commandId,
    correlationId: retract.correlationId,
    causationId: retract.causationId,
    batch: retract.batch,
  })
  .strict()
  .openapi('RetractMemoryBody');
export const rollbackBody = rollbackSchema.omit({ batch: true }).openapi('RollbackBody');

// ---- query strings: a scope travels as JSON text ----------------------------------------------

const scopeParam = z
  .string()
  .optional()
  .openapi({ description: 'Scope as a JSON object of strings.', example: '{"env":"prod"}' });
export const factQueryParams = factQuerySchema.omit({ scope: true }).extend({ scope: scopeParam });
export const historyQueryParams = historyQuerySchema.omit({ scope: true }).extend({ scope: scopeParam });
export const subjectQueryParams = subjectQuerySchema.omit({ subject: true });
export const memoryQueryParams = memoryQuerySchema.omit({ memoryId: true });
export const auditQueryParams = auditQuerySchema;
export const batchQueryParams = batchQuerySchema.omit({ batch: true });
export const auditDiffQueryParams = auditDiffQuerySchema;

// ---- responses ------------------------------------------------------------------------------

// The ledger's own answers (memories, facts, histories, batches, write results) are its schemas
// (@factledger/ledger views.ts); these are the rest, built on the same parts.
const instant = instantSchema;
const scope = scopeSchema;

// ---- the audit: what the ledger believed, and what changed in it ---------------------------------

const believedSchema = z.object({
  ...versionFields,
  kind: z.string().openapi({ description: '`fact` (under a key) or `prose`.' }),
  subject: z.string().nullable(),
  relation: z.string().nullable(),
  scope,
});
export const beliefViewSchema = z
  .object({
    knownAt: instant,
    validAt: instant,
    subject: z.string().nullable(),
    memories: z.array(believedSchema).openapi({ description: 'Every memory in the read paths at (validAt, knownAt), by subject, relation, scope and value.' }),
    truncated: z.boolean().openapi({ description: 'True when there were more than `limit`.' }),
  })
  .openapi('Belief');
const changeEventSchema = z.object({
  position: z.number().int(),
  type: z.string(),
  memoryId: z.string().nullable(),
  recordedAt: instant,
  batch: z.string().nullable().openapi({ description: 'Its batch label: what `rollback` takes to undo it.' }),
  actor: z.string().nullable().openapi({ description: 'The id of the API key that wrote it (never its secret), or the actor id a host passed; null when nobody was named.' }),
});
const beliefChangeSchema = z.object({
  kind: z.string(),
  subject: z.string().nullable(),
  relation: z.string().nullable(),
  scope,
  before: z.array(believedSchema),
  after: z.array(believedSchema),
  events: z.array(changeEventSchema).openapi({ description: 'The events recorded on this key between the two moments; none when only valid time moved (a value that began or ended).' }),
});
export const beliefDiffSchema = z
  .object({
    from: instant,
    to: instant,
    validAt: instant.nullable(),
    subject: z.string().nullable(),
    changes: z.array(beliefChangeSchema),
    truncated: z.boolean(),
  })
  .openapi('BeliefDiff');

export const healthSchema = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    store: z.object({ ok: z.boolean(), backend: z.enum(['pglite', 'postgres']) }),
    migrations: z.object({ ok: z.boolean(), pending: z.array(z.string()) }),
    projections: z.array(
      z.object({
        name: z.string(),
        behindEvents: z.number().int(),
        lagMs: z.number().int(),
        checkpoint: z.object({ commit: z.string(), prepare: z.number().int() }),
      }),
    ),
    recallIndex: z
      .object({ behindEvents: z.number().int(), lagMs: z.number().int(), checkpoint: z.number().int() })
      .nullable()
      .openapi({ description: 'Events the recall indexer has not embedded yet, and the age of the oldest; null without recall.' }),
  })
  .openapi('Health');

export type Health = z.infer<typeof healthSchema>;

// ---- messages --------------------------------------------------------------------------------

const gateFindingSchema = z.object({ gate: z.string().openapi({ example: 'role-play guard' }), passed: z.boolean(), detail: z.string() });

const resolvedMemorySchema = z
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
    effect: z.enum(['retracted', 'withdrawn', 'kept']).openapi({ description: 'retracted from the statement\'s valid time; withdrawn (a correction: it never held); kept.' }),
    frame: z
      .object({
        frame: z.string(),
        holds: z.enum(['one', 'many', 'unsure']),
        score: z.number(),
        effect: z.enum(['retracted', 'withdrawn', 'filled-history', 'kept']),
      })
      .optional()
      .openapi({ description: 'When frame alignment decided (the same sentence with one value changed): the shared frame, what it holds, the alignment score, and the effect.' }),
  })
  .openapi('ResolvedMemory');

const ingestedCandidateSchema = z
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
    validFrom: instant,
    rule: z.string().openapi({ description: 'The extraction rule that produced it.' }),
    outcome: z.string().nullable().openapi({ description: 'What the write did (created, superseded, reinforced, duplicate, …); null when nothing was written.' }),
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
    actor: z.string().nullable().openapi({ description: 'Who sent the message: the API key id of the request, or a host application\'s actor id.' }),
    kind: z.enum(['inform', 'ask']).openapi({ description: 'A question (ask) is never a source of memories.' }),
    topic: z.string().openapi({ example: 'home' }),
    language: z.enum(['en', 'ko', 'other']),
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
        requests: z.number().int().openapi({ description: 'Sentences of the user\'s that asked to forget ("please erase that from your memory", "don\'t keep my passport number", "그거 지워줘"): stored nowhere.' }),
        statements: z.number().int().openapi({ description: 'Statements of this message a request named ("My PIN is 1234. Forget that."): in no memory, and left out of the record\'s text.' }),
        memoryIds: z.array(z.string()).openapi({ description: 'The earlier memories taken away: the user\'s that a request named, and the assistant\'s turns that repeat a value of them (an erased fact with every version of it).' }),
        how: z.enum(['erased', 'quarantined']).openapi({ description: 'erased: their words are gone, as POST /erasures leaves them; quarantined: a log that cannot be rewritten (KurrentDB) keeps their words, out of every read and context.' }),
        erasureId: z.string().nullable(),
        ambiguous: z
          .array(z.object({ memoryIds: z.array(z.string()) }))
          .openapi({ description: 'Requests that named several memories with nothing to tell them apart (say "my address" for a home and an office address): nothing was taken for them; erase the one meant by id, or say which.' }),
        unmatched: z.number().int().openapi({ description: 'Requests that named nothing the user had said.' }),
      })
      .nullable()
      .openapi({ description: 'What the message\'s requests to forget took away (ids and counts, never words); null when it made none. Over the chat only the user\'s own memories (and the assistant\'s repeats of them) are reached: see docs/security.md, Erasure.' }),
  })
  .openapi('IngestResult');

export const errorSchema = z
  .object({
    error: z.string().openapi({ description: 'Stable code: invalid_input, unknown_memory, memory_erased, unknown_batch, unknown_message, cardinality_conflict, illegal_lifecycle, slot_taken, version_conflict, projection_lag, …' }),
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional().openapi({ description: 'invalid_input only: what is wrong, field by field.' }),
    erased: z
      .object({ erasureId: z.string(), erasedAt: z.string(), position: z.number().int(), actor: z.string().nullable() })
      .optional()
      .openapi({ description: 'memory_erased only: which erasure took the memory, when, and by which key.' }),
    heldBy: z.string().optional().openapi({ description: 'slot_taken only: the memory that holds the slot a restore asked for (the same key from the same start).' }),
  })
  .openapi('Error');

// ---- erasure ---------------------------------------------------------------------------------

export const erasureBody = erasureSchema.openapi('ErasureBody', {
  description: 'Exactly one of: memoryId (that memory, with every version of its fact), subject (every memory kept under it), all: true (the whole tenant).',
});

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

const citationSchema = z.object({
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

export const answerSchema = z
  .object({
    answerId: z.string(),
    question: z.string(),
    text: z.string(),
    citations: z.array(citationSchema).openapi({ description: 'The memory versions it cited, as they were when it was recorded.' }),
    status: z.enum(['answered', 'reopened', 'reviewed']),
    reopened: z
      .object({ answerId: z.string(), memoryId: z.string(), reason: z.string(), cause: z.object({ position: z.number().int(), event: z.string() }), at: instant })
      .nullable()
      .openapi({ description: 'Why the re-review saga reopened it, while it waits for review.' }),
    recordedAt: instant,
    position: z.number().int(),
  })
  .openapi('Answer');

const citationNowSchema = citationSchema.extend({
  now: z.object({ status: z.string(), supersededBy: z.string().nullable() }).nullable().openapi({ description: 'What became of the cited version; null when it is gone.' }),
});

export const answerViewSchema = answerSchema.extend({ citations: z.array(citationNowSchema) }).openapi('AnswerWithCitations');

const claimVerdictSchema = z
  .object({
    verdict: z.enum(['supported', 'distorted', 'stale', 'fabricated']),
    says: z.string(),
    memory: z.object({ memoryId: z.string(), value: z.string().nullable(), text: z.string(), speaker: z.string(), status: z.string() }).nullable(),
    current: z.array(z.object({ memoryId: z.string(), value: z.string().nullable(), text: z.string() })).openapi({ description: 'For stale and distorted: what memory says now.' }),
    reason: z.string(),
  })
  .openapi('ClaimVerdict');

export const verificationSchema = z.object({ verdicts: z.array(claimVerdictSchema) }).openapi('Verification');

export const revisionSchema = z
  .object({
    answer: z.string(),
    revisions: z.number().int().openapi({ description: 'How many times the model rewrote the answer.' }),
    verdicts: z.array(claimVerdictSchema),
    settled: z.boolean().openapi({ description: 'Every claim of the final answer is supported.' }),
  })
  .openapi('Revision');

// A documented response must have exactly the fields the ledger returns: this fails to compile otherwise.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
type Documented<S extends z.ZodType, T> = SameKeys<z.infer<S>, T>;
const responsesInSync: [
  Documented<typeof ingestResultSchema, IngestResult>,
  Documented<typeof ingestedCandidateSchema, IngestResult['candidates'][number]>,
  Documented<typeof gateFindingSchema, IngestResult['candidates'][number]['gates'][number]>,
  Documented<typeof resolvedMemorySchema, NonNullable<IngestResult['candidates'][number]['resolution']>[number]>,
  Documented<typeof erasureResultSchema, ErasureResult>,
  Documented<typeof answerWriteResultSchema, AnswerWriteResult>,
  Documented<typeof answerSchema, AnswerRow>,
  Documented<typeof citationSchema, AnswerRow['citations'][number]>,
  Documented<typeof answerViewSchema, AnswerView>,
  Documented<typeof citationNowSchema, AnswerView['citations'][number]>,
  Documented<typeof claimVerdictSchema, ClaimVerdict>,
  Documented<typeof revisionSchema, Revision>,
  Documented<typeof beliefViewSchema, BeliefView>,
  Documented<typeof believedSchema, BelievedView>,
  Documented<typeof beliefDiffSchema, BeliefDiffView>,
  Documented<typeof beliefChangeSchema, BeliefChangeView>,
  Documented<typeof changeEventSchema, ChangeEventView>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];
void responsesInSync;

// ---- recall ----------------------------------------------------------------------------------

export const contextItemSchema = z
  .object({
    memoryId: z.string(),
    channel: z.enum(['profile', 'fresh', 'detail']),
    text: z.string(),
    type: z.string(),
    speaker: z.string(),
    source: z.string().nullable(),
    saidAt: z.string().openapi({ description: 'When it was said (the day its heading shows), not when it was recorded.' }),
    note: z.string().optional().openapi({ description: 'What the block says beside it: that it is unconfirmed (what it hung on changed, and what took its place), or that it contradicts a memory shown with it, both kept.' }),
    scores: z.object({ cosine: z.number().nullable(), textRank: z.number(), trigram: z.number(), fused: z.number().nullable() }),
  })
  .openapi('ContextItem');

export const contextResultSchema = z
  .object({
    traceId: z.string().uuid(),
    text: z.string().openapi({ description: 'The rendered block, framed as untrusted reference data; empty when nothing is relevant.' }),
    tokens: z.number().int(),
    budgetTokens: z.number().int(),
    items: z.array(contextItemSchema),
  })
  .openapi('ContextResult');

export const traceSchema = z.record(z.string(), z.unknown()).openapi('RecallTrace', {
  description: 'Every stage of one assembly: query hygiene, as-of, index lag, candidate pool with named scores, exclusions, fusion, diversity, channels, budget cut, survivors.',
});
