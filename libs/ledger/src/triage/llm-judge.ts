/**
 * A language model as the judge: temperature 0, JSON verdicts, validated before use. Items go in
 * batches; a reply that skips, repeats or invents a ref, or is not the JSON asked for, fails the
 * whole run (LlmBadResponseError) rather than being patched up.
 */
import { type ChatModel, LlmBadResponseError } from '@factledger/llm';
import { z } from 'zod';
import { typeName } from '../ledger.schemas';
import type { JudgeInput, JudgeTask, JudgeVerdict, MemoryJudge } from './memory-judge';

const replySchema = z.object({
  verdicts: z.array(
    z.object({
      ref: z.string(),
      verdict: z.enum(['keep', 'quarantine', 'retype']),
      type: typeName.optional(),
      label: z.string().optional(),
      reason: z.string().optional(),
    }),
  ),
});

export function judgePrompt(task: JudgeTask): string {
  return [
    `You review memories that an assistant's memory store holds as "${task.type}" (${task.description}). Many were stored by mistake.`,
    'For each item decide one verdict:',
    `- "keep": it really is a ${task.type};`,
    '- "quarantine": it is not worth remembering as such: small talk, thanks, a question, an echo of what the assistant said, a role-play scene or stage direction, or too vague;',
    `- "retype": it is worth remembering, but as another type; give "type", one of: ${task.retypeTo.map((t) => `"${t}"`).join(', ')}.`,
    'When unsure, choose "quarantine" (it stays stored and can be restored).',
    'Answer with JSON only: {"verdicts":[{"ref":"…","verdict":"keep|quarantine|retype","type":"…","label":"real|echo|question|roleplay|smalltalk|retype","reason":"a few words"}]}, one entry per item.',
  ].join('\n');
}

export class LlmJudge implements MemoryJudge {
  readonly name: string;

  constructor(
    private readonly model: ChatModel,
    private readonly batchSize = 20,
  ) {
    this.name = `llm:${model.model}`;
  }

  async judge(task: JudgeTask, items: JudgeInput[]): Promise<JudgeVerdict[]> {
    const out: JudgeVerdict[] = [];
    for (let i = 0; i < items.length; i += this.batchSize) {
      const batch = items.slice(i, i + this.batchSize);
      const reply = await this.model.complete(
        [
          { role: 'system', content: judgePrompt(task) },
          { role: 'user', content: JSON.stringify({ items: batch.map((b) => ({ ref: b.ref, speaker: b.speaker, saidAt: b.saidAt, text: b.text })) }) },
        ],
        { temperature: 0, json: true },
      );
      let parsed: z.output<typeof replySchema>;
      try {
        parsed = replySchema.parse(JSON.parse(reply));
      } catch (error) {
        throw new LlmBadResponseError(`expected {"verdicts":[…]}: ${(error as Error).message.slice(0, 200)}`);
      }
      const wanted = new Set(batch.map((b) => b.ref));
      for (const v of parsed.verdicts) {
        if (!wanted.delete(v.ref)) throw new LlmBadResponseError(`verdict for unknown or repeated ref ${JSON.stringify(v.ref)}`);
        if (v.verdict === 'retype' && (!v.type || !task.retypeTo.includes(v.type))) {
          throw new LlmBadResponseError(`retype of ${v.ref} to ${JSON.stringify(v.type)}, not one of ${task.retypeTo.join(', ')}`);
        }
        out.push({ ref: v.ref, action: v.verdict, ...(v.verdict === 'retype' ? { type: v.type } : {}), label: v.label ?? v.verdict, reason: v.reason ?? '' });
      }
      if (wanted.size) throw new LlmBadResponseError(`no verdict for ${[...wanted].slice(0, 5).join(', ')}`);
    }
    return out;
  }
}
