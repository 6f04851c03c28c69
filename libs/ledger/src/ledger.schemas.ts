/**
 * The ledger's input contract, as zod schemas: one definition validates HTTP bodies, CLI and
 * scenario steps, and library calls, and generates the OpenAPI document.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { ASSERT_MODES, CARDINALITIES, InvalidInputError, inputIssues, SPEAKERS, timeOrIssue } from '@factledger/domain';
import { z } from 'zod';

extendZodWithOpenApi(z);

/** ISO 8601 date (`2026-03-01`, midnight UTC) or date-time; a time without a zone is UTC; a real date of the years 1 to 9999 (@factledger/domain iso-time.ts). */
export const isoTime = z
  .union([z.date(), z.string()])
  .transform((value, ctx) => timeOrIssue(value, (message) => ctx.addIssue({ code: 'custom', message })) ?? z.NEVER)
  .openapi({ type: 'string', example: '2026-03-01' });

/** A memory's type: one word of letters, digits, `-` and `_`, as it is shown in a context's headings and filtered on. */
export const typeName = z
  .string()
  .trim()
  .regex(/^[\p{L}\p{N}][\p{L}\p{N}_-]{0,39}$/u, 'must be one word: letters, digits, "-" or "_", at most 40 characters')
  .openapi({ example: 'preference' });

const term = (what: string) => z.string().trim().min(1, `${what} must not be empty`).max(500);

export const tenantSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, ".", "_" or "-", at most 64 characters');

const writeMeta = {
  commandId: z.string().min(1).max(200).optional().openapi({ description: 'Retrying with the same id appends nothing twice.' }),
  correlationId: z.string().max(200).optional(),
  causationId: z.string().max(200).optional(),
  batch: z.string().min(1).max(200).optional().openapi({ description: 'Label that groups lifecycle changes for rollback.' }),
};

/** The metadata of a multi-op write, which belongs to the whole call. */
export const writeManyMetaSchema = z.object(writeMeta).strict();

export const assertSchema = z
  .object({
    subject: term('subject').optional(),
    relation: term('relation').optional(),
    value: term('value').optional(),
    text: z.string().trim().min(1, 'text must not be empty').max(20_000).optional(),
    scope: z.record(z.string().min(1), z.string().min(1)).optional(),
    validFrom: isoTime.optional(),
    validTo: isoTime.optional(),
    saidAt: isoTime.optional().openapi({
      description:
        "When the statement was said (a message's time, a document's date), not when it is recorded. Default: validFrom when given (now when that is later), else now. Without validFrom the statement said no start: it holds from saidAt, and a later statement said after it may date a change before it.",
    }),
    cardinality: z.enum(CARDINALITIES).optional(),
    mode: z.enum(ASSERT_MODES).default('update'),
    speaker: z.enum(SPEAKERS).default('user'),
    source: z.string().max(1000).optional(),
    authority: z.number().int().min(-1000).max(1000).default(0),
    type: typeName.default('fact'),
    core: z.boolean().default(false),
    dependsOn: z
      .array(z.union([z.string().min(1).max(200), z.object({ subject: term('subject'), relation: term('relation'), scope: z.record(z.string().min(1), z.string().min(1)).optional() }).strict()]))
      .max(20)
      .optional()
      .openapi({ description: 'The memories this one hangs on, by id or by key (its current version): when one changes, this one is marked unconfirmed (or a rule applies).' }),
    ...writeMeta,
  })
  .strict()
  .superRefine((v, ctx) => {
    const triple = [v.subject, v.relation, v.value].filter((x) => x !== undefined).length;
    if (triple > 0 && triple < 3) {
      for (const f of ['subject', 'relation', 'value'] as const) {
        if (v[f] === undefined) ctx.addIssue({ code: 'custom', path: [f], message: 'subject, relation and value go together' });
      }
    }
    if (triple === 0 && v.text === undefined) {
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'give a triple (subject, relation, value), a text, or both' });
    }
    if (triple === 0 && (v.scope || v.cardinality || v.mode === 'correction')) {
      ctx.addIssue({ code: 'custom', path: ['subject'], message: 'scope, cardinality and correction need a triple' });
    }
    if (v.validFrom && v.validTo && v.validTo <= v.validFrom) {
      ctx.addIssue({ code: 'custom', path: ['validTo'], message: 'must be later than validFrom' });
    }
  })
  .openapi('AssertInput');

export const memoryRefSchema = z.object({ memoryId: z.string().min(1).max(200), ...writeMeta }).strict();

export const quarantineSchema = memoryRefSchema
  .extend({ reason: z.string().max(1000).optional() })
  .strict()
  .openapi('QuarantineInput');
export const restoreSchema = memoryRefSchema
  .extend({ reason: z.string().max(1000).optional() })
  .strict()
  .openapi('RestoreInput');
export const confirmSchema = memoryRefSchema
  .extend({ reason: z.string().max(1000).optional() })
  .strict()
  .openapi('ConfirmInput');
export const retypeSchema = memoryRefSchema
  .extend({ type: typeName, reason: z.string().max(1000).optional() })
  .strict()
  .openapi('RetypeInput');

export const retractSchema = z
  .object({
    memoryId: z.string().min(1).max(200).optional(),
    subject: term('subject').optional(),
    relation: term('relation').optional(),
    value: term('value').optional(),
    scope: z.record(z.string().min(1), z.string().min(1)).optional(),
    validFrom: isoTime.optional(),
    reason: z.string().max(1000).optional(),
    ...writeMeta,
  })
  .strict()
  .superRefine((v, ctx) => {
    const byValue = v.subject !== undefined && v.relation !== undefined && v.value !== undefined;
    if (!v.memoryId && !byValue) {
      ctx.addIssue({ code: 'custom', path: ['memoryId'], message: 'give a memoryId, or subject, relation and value' });
    }
  })
  .openapi('RetractInput');

/** A batch's events and the memories they touched. */
export const batchQuerySchema = z
  .object({ batch: z.string().min(1).max(200), minPosition: z.coerce.number().int().min(0).optional().openapi({ description: 'Never answer from a state older than this log position.' }) })
  .strict()
  .openapi('BatchQuery');

export const rollbackSchema = z
  .object({ batch: z.string().min(1).max(200), commandId: writeMeta.commandId })
  .strict()
  .openapi('RollbackInput');

const asOf = {
  validAt: isoTime.optional().openapi({ description: 'Valid time: what was true then. Default: now.' }),
  knownAt: isoTime.optional().openapi({ description: 'Transaction time: as the ledger knew it then. Default: now.' }),
  minPosition: z.coerce.number().int().min(0).optional().openapi({ description: 'Never answer from a state older than this log position.' }),
};

export const factQuerySchema = z
  .object({ subject: term('subject'), relation: term('relation'), scope: z.record(z.string().min(1), z.string().min(1)).optional(), ...asOf })
  .strict()
  .openapi('FactQuery');

export const subjectQuerySchema = z
  .object({ subject: term('subject'), ...asOf })
  .strict()
  .openapi('SubjectQuery');

const auditLimit = z.coerce.number().int().min(1).max(10_000).optional().openapi({ description: 'At most this many rows (changes, for the diff); default 1,000, at most 10,000.' });

/** What the ledger believed: the tenant's memories (or one subject's) known at `knownAt`, true at `validAt`. */
export const auditQuerySchema = z
  .object({
    knownAt: asOf.knownAt,
    validAt: isoTime.optional().openapi({ description: 'Valid time: what was true then. Default: knownAt.' }),
    subject: term('subject').optional(),
    limit: auditLimit,
    minPosition: asOf.minPosition,
  })
  .strict()
  .openapi('AuditQuery');

/** What changed in what the ledger believed between two transaction times. */
export const auditDiffQuerySchema = z
  .object({
    from: isoTime.openapi({ description: 'The earlier transaction time.' }),
    to: isoTime.openapi({ description: 'The later transaction time.' }),
    validAt: isoTime.optional().openapi({ description: 'Valid time for both sides. Default: each side at its own moment (what the agent would have been told then).' }),
    subject: term('subject').optional(),
    limit: auditLimit,
    minPosition: asOf.minPosition,
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.to instanceof Date && v.from instanceof Date && v.to.getTime() <= v.from.getTime()) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be later than from' });
  })
  .openapi('AuditDiffQuery');

export const historyQuerySchema = z
  .object({
    subject: term('subject'),
    relation: term('relation'),
    scope: z.record(z.string().min(1), z.string().min(1)).optional(),
    minPosition: asOf.minPosition,
  })
  .strict()
  .openapi('HistoryQuery');

export const memoryQuerySchema = z.object({ memoryId: z.string().min(1).max(200), minPosition: asOf.minPosition }).strict();

export type AssertInput = z.input<typeof assertSchema>;
export type RetractInput = z.input<typeof retractSchema>;
export type QuarantineInput = z.input<typeof quarantineSchema>;
export type RestoreInput = z.input<typeof restoreSchema>;
export type ConfirmInput = z.input<typeof confirmSchema>;
export type RetypeInput = z.input<typeof retypeSchema>;
export type RollbackInput = z.input<typeof rollbackSchema>;
export type BatchQueryInput = z.input<typeof batchQuerySchema>;
export type FactQueryInput = z.input<typeof factQuerySchema>;
export type SubjectQueryInput = z.input<typeof subjectQuerySchema>;
export type HistoryQueryInput = z.input<typeof historyQuerySchema>;
export type AuditQueryInput = z.input<typeof auditQuerySchema>;
export type AuditDiffQueryInput = z.input<typeof auditDiffQuerySchema>;
export type MemoryQueryInput = z.input<typeof memoryQuerySchema>;

/** The input validated by `schema`: a typed error naming every field that is wrong, text that cannot be stored first. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const unfit = inputIssues(input);
  if (unfit.length) throw new InvalidInputError(unfit);
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw new InvalidInputError(result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })));
}
