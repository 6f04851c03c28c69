/**
 * Who reads the triples out of a message's statements: the offline rules by default
 * (@factledger/domain extraction.ts), or a language model through the LLM port
 * (`FACTLEDGER_EXTRACTION=llm`): temperature 0, a JSON reply validated field by field, the
 * tenant's existing keys offered for reuse, and the rule of seed 004 in its instructions — two
 * sentences that differ only in their value give the same subject and relation. Resolution and
 * the admission gates judge the model's candidates as they judge the rules'.
 */
import { CORE_RELATIONS, type Candidate, extractCandidates, type ExtractionInput, typeOfRelation, validFromOf } from '@factledger/domain';
import { type ChatModel, LlmBadResponseError } from '@factledger/llm';
import { z } from 'zod';

/** A key the tenant already holds, offered to the model for reuse. */
export interface KnownKey {
  subject: string;
  relation: string;
}

export interface MessageExtractor {
  readonly name: string;
  extract(input: ExtractionInput, known: () => Promise<KnownKey[]>): Promise<Candidate[]>;
}

export const ruleExtractor: MessageExtractor = { name: 'rules', extract: async (input) => extractCandidates(input) };

const term = z.string().trim().min(1).max(200);
const replySchema = z.object({
  facts: z.array(z.object({ subject: term, relation: term, value: term, sentence: z.string().trim().min(1).max(2000), many: z.boolean().optional() }).strict()).max(20),
});

const PROMPT = [
  'You read facts out of what a user tells an assistant with a long-term memory.',
  'For each fact stated as true now, give subject, relation and value: the subject "user" for the speaker (I, my, me), "assistant" for the one spoken to.',
  'Two sentences that differ only in their value MUST give the same subject and relation: "I live in Busan" and "I moved to Daejeon" are both user / lives in.',
  'When a fact is about one of the known keys below, reuse that key exactly as written.',
  'Leave out questions, plans, wishes, other people\'s news and anything that is not a fact; give "many": true for a relation that holds several values at once (likes, speaks, pets).',
  'Answer with JSON only: {"facts":[{"subject":"…","relation":"…","value":"…","sentence":"the sentence it came from","many":false}]}; {"facts":[]} when there is none.',
].join('\n');

export class LlmExtractor implements MessageExtractor {
  readonly name: string;

  constructor(
    private readonly model: ChatModel,
    private readonly maxKnownKeys = 50,
  ) {
    this.name = `llm:${model.model}`;
  }

  async extract(input: ExtractionInput, known: () => Promise<KnownKey[]>): Promise<Candidate[]> {
    const statements = input.triage.sentences.filter((s) => s.act === 'statement').map((s) => s.text);
    if (statements.length === 0) return [];
    const keys = (await known()).slice(0, this.maxKnownKeys);
    const reply = await this.model.complete(
      [
        { role: 'system', content: `${PROMPT}\nKnown keys:\n${keys.map((k) => `- ${k.subject} / ${k.relation}`).join('\n') || '- (none yet)'}` },
        { role: 'user', content: statements.join('\n') },
      ],
      { temperature: 0, json: true },
    );
    let parsed: z.output<typeof replySchema>;
    try {
      parsed = replySchema.parse(JSON.parse(reply));
    } catch (error) {
      throw new LlmBadResponseError(`expected {"facts":[{"subject","relation","value","sentence"}]}: ${(error as Error).message.slice(0, 200)}`);
    }
    if (parsed.facts.length === 0) return extractCandidates(input).filter((c) => c.memoryKind === 'prose');
    return parsed.facts.map((f) => ({
      memoryKind: 'fact' as const,
      subject: f.subject,
      relation: f.relation,
      value: f.value,
      cardinality: f.many ? ('many' as const) : ('one' as const),
      labels: [typeOfRelation(f.relation)],
      // The sentence as said: the model's copy only when it is one of the message's own.
      text: statements.find((s) => s.includes(f.sentence) || f.sentence.includes(s)) ?? statements.join(' '),
      validFrom: validFromOf(f.sentence, input.at),
      core: CORE_RELATIONS.has(f.relation) && f.subject === 'user',
      rule: `${this.name}: ${f.subject} / ${f.relation}`,
    }));
  }
}
