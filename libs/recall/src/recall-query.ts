/**
 * What recall takes and what it answers: the query (the latest message, the budget, the moment of
 * valid and of known time, the position a read must not be older than) and the block with its
 * items, each with its scores. The HTTP API, MCP and the CLI parse their input with this schema.
 */
import { timeOrIssue } from '@factledger/domain';
import { z } from 'zod';
import { type ContextItem, MAX_BUDGET_TOKENS } from './context-render';

/** A time as a Date or ISO 8601 text: a real date of the years 1 to 9999 (@factledger/domain iso-time.ts). */
const givenTime = z
  .union([z.date(), z.string()])
  .transform((value, ctx) => timeOrIssue(value, (message) => ctx.addIssue({ code: 'custom', message })) ?? z.NEVER)
  // Over JSON it is always text: what the contract says.
  .meta({ type: 'string', example: '2026-03-01' });

export const recallQuerySchema = z
  .object({
    query: z.string().trim().min(1, 'the latest user message is required').max(4000),
    budgetTokens: z.number().int().min(16).max(MAX_BUDGET_TOKENS).default(400),
    validAt: givenTime.optional(),
    knownAt: givenTime.optional(),
    minPosition: z.number().int().min(0).optional(),
  })
  .strict();

export interface RecalledItem extends ContextItem {
  scores: { cosine: number | null; passageCosine: number | null; bm25: number; coverage: number; context: number; trigram: number; namedSpeaker: boolean; fused: number | null };
}

export interface RecallResult {
  traceId: string;
  text: string;
  tokens: number;
  budgetTokens: number;
  items: RecalledItem[];
}
