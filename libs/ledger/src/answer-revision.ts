/**
 * The optional, model-backed end of verification (R16): pull the claims out of a free answer
 * text, verify them, and have the model rewrite the answer while claims fail — at most
 * `maxRevisions` times. Verification itself never needs a model; this only feeds it.
 */
import { type ChatModel, LlmBadResponseError } from '@factledger/llm';
import { z } from 'zod';
import { parse } from './ledger.schemas';
import { tenantSchema } from './ledger.schemas';
import type { ClaimVerifier } from './verify-claims';
import type { Revision } from './views';

const claimsReply = z.object({
  claims: z.array(z.object({ says: z.string().min(1), speaker: z.enum(['user', 'assistant', 'tool', 'document']).optional() })).max(50),
});

const EXTRACT = [
  "You list the factual claims an assistant answer makes about the user or the user's world, as short statements.",
  'For each, say who is supposed to have said it originally ("user" if it is something the user told the assistant).',
  'Reply with JSON only: {"claims":[{"says":"...","speaker":"user"}]}. No claims: {"claims":[]}.',
].join(' ');

export const reviseAnswerSchema = z.object({ question: z.string().max(10_000).default(''), answer: z.string().trim().min(1, 'the answer text is required').max(20_000) }).strict();

export class AnswerReviser {
  constructor(
    private readonly deps: { model: ChatModel; verifier: ClaimVerifier },
    private readonly maxRevisions = 2,
  ) {}

  async extractClaims(answer: string): Promise<{ says: string; speaker?: string }[]> {
    const reply = await this.deps.model.complete(
      [
        { role: 'system', content: EXTRACT },
        { role: 'user', content: answer },
      ],
      { temperature: 0, json: true },
    );
    let json: unknown;
    try {
      json = JSON.parse(reply);
    } catch {
      throw new LlmBadResponseError('the claims are not JSON');
    }
    const parsed = claimsReply.safeParse(json);
    if (!parsed.success) throw new LlmBadResponseError(`the claims do not have the expected shape (${parsed.error.issues[0]?.message})`);
    return parsed.data.claims;
  }

  async revise(tenant: string, raw: z.input<typeof reviseAnswerSchema>): Promise<Revision> {
    const t = parse(tenantSchema, tenant);
    const input = parse(reviseAnswerSchema, raw);
    let answer = input.answer;
    for (let revisions = 0; ; revisions++) {
      const claims = await this.extractClaims(answer);
      const verdicts = claims.length ? (await this.deps.verifier.verify(t, { claims })).verdicts : [];
      const failed = verdicts.filter((v) => v.verdict !== 'supported');
      if (failed.length === 0 || revisions >= this.maxRevisions) return { answer, revisions, verdicts, settled: failed.length === 0 };
      const problems = failed.map((v) => {
        const now = v.current.map((c) => c.value ?? c.text).join(', ');
        return `- "${v.says}" is ${v.verdict}: ${v.reason}${now ? `; memory says now: ${now}` : ''}`;
      });
      answer = await this.deps.model.complete(
        [
          { role: 'system', content: 'Rewrite the answer so that it states only what the memory supports. Keep it short. Reply with the new answer text only.' },
          { role: 'user', content: `Question: ${input.question}\nAnswer: ${answer}\nProblems found against memory:\n${problems.join('\n')}` },
        ],
        { temperature: 0 },
      );
    }
  }
}
