/**
 * Who decides whether a message informs or asks (R8): the offline rules by default, or a language
 * model through the LLM port (temperature 0, a JSON verdict, validated). The model decides the
 * kind and the topic; the sentences it is split into, and so what extraction reads, stay the rules'.
 */
import { triageMessage, type Triage } from '@factledger/domain';
import { type ChatModel, LlmBadResponseError } from '@factledger/llm';
import { z } from 'zod';

export interface MessageTriager {
  readonly name: string;
  triage(text: string): Promise<Triage>;
}

export const ruleTriager: MessageTriager = { name: 'rules', triage: async (text) => triageMessage(text) };

const replySchema = z.object({ kind: z.enum(['inform', 'ask']), topic: z.string().trim().min(1).max(60), reason: z.string().max(500).optional() });

const PROMPT = [
  'You sort chat messages a user sends to an assistant with a long-term memory.',
  '"inform": the message tells something worth remembering about the speaker or their world (even with a question attached).',
  '"ask": the message only asks, requests or checks something (questions, "remind me…", "you said X, right?").',
  'Give the topic in one or two lowercase English words (home, contact, work, preferences, health, config, schedule, general…).',
  'Answer with JSON only: {"kind":"inform|ask","topic":"…","reason":"a few words"}.',
].join('\n');

export class LlmTriager implements MessageTriager {
  readonly name: string;

  constructor(private readonly model: ChatModel) {
    this.name = `llm:${model.model}`;
  }

  async triage(text: string): Promise<Triage> {
    const rules = triageMessage(text);
    const reply = await this.model.complete(
      [
        { role: 'system', content: PROMPT },
        { role: 'user', content: text },
      ],
      { temperature: 0, json: true },
    );
    let verdict: z.output<typeof replySchema>;
    try {
      verdict = replySchema.parse(JSON.parse(reply));
    } catch (error) {
      throw new LlmBadResponseError(`expected {"kind":"inform|ask","topic":"…"}: ${(error as Error).message.slice(0, 200)}`);
    }
    // Extraction reads statements only: an informing verdict on what the rules took for
    // questions makes them statements; an asking verdict makes every sentence a question.
    const rulesInform = rules.sentences.some((s) => s.act === 'statement');
    const sentences =
      verdict.kind === 'ask' ? rules.sentences.map((s) => ({ ...s, act: 'question' as const })) : rulesInform ? rules.sentences : rules.sentences.map((s) => ({ ...s, act: 'statement' as const }));
    return { ...rules, kind: verdict.kind, topic: verdict.topic, sentences, reasons: [`${verdict.kind} (${this.name}${verdict.reason ? `: ${verdict.reason}` : ''}); the rules said ${rules.kind}`] };
  }
}
