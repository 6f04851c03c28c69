/**
 * HTTP-only shapes: path parameters, query strings as they arrive, and the server's own response
 * bodies (health, errors, recall's block). Inputs and the ledger's answers are the ledger's own
 * schemas (@factledger/ledger ledger.schemas.ts and views.ts).
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
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
} from '@factledger/ledger';
import { z } from 'zod';

extendZodWithOpenApi(z);

const minPosition = memoryQuerySchema.shape.minPosition;

/** GET /memories: the ledger takes these as plain options, so the server validates them. */
export const listMemoriesQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).optional().openapi({ description: 'At most this many, newest first (default 100).' }),
    status: z
      .enum(['active', 'quarantined', 'retired', 'overruled'])
      .optional()
      .openapi({ description: 'Default `active`: the memories in the read paths now. Any other status: the memories that have it, whatever their valid time.' }),
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

const scopeParam = z.string().optional().openapi({ description: 'Scope as a JSON object of strings.', example: '{"env":"prod"}' });
export const factQueryParams = factQuerySchema.omit({ scope: true }).extend({ scope: scopeParam });
export const historyQueryParams = historyQuerySchema.omit({ scope: true }).extend({ scope: scopeParam });
export const subjectQueryParams = subjectQuerySchema.omit({ subject: true });
export const memoryQueryParams = memoryQuerySchema.omit({ memoryId: true });
export const auditQueryParams = auditQuerySchema;
export const batchQueryParams = batchQuerySchema.omit({ batch: true });
export const auditDiffQueryParams = auditDiffQuerySchema;

// ---- responses ------------------------------------------------------------------------------

// The ledger's answers (memories, facts, histories, batches, write results, messages, the audit,
// erasures, answers and verdicts) are its own schemas (@factledger/ledger views.ts), the types it
// returns inferred from them; these are the server's own: health and errors.

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

export const errorSchema = z
  .object({
    error: z.string().openapi({
      description:
        'Stable code: invalid_input, unknown_memory, memory_erased, unknown_batch, unknown_message, cardinality_conflict, illegal_lifecycle, slot_taken, version_conflict, projection_lag, …',
    }),
    message: z.string(),
    issues: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .openapi({ description: 'invalid_input only: what is wrong, field by field.' }),
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
    note: z
      .string()
      .optional()
      .openapi({ description: 'What the block says beside it: that it is unconfirmed (what it hung on changed, and what took its place), or that it contradicts a memory shown with it, both kept.' }),
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
