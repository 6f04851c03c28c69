/**
 * The offline default judge: the write path's own rules, read the other way round, plus the
 * type's examples. It never uses the admission keyword gate — that gate was built to keep new
 * noise out and would throw away genuine old memories said without one of its words ("I want to
 * build a life with you"). When nothing speaks for a memory it goes to quarantine: out of every
 * read path, kept, restorable (seed 000's conservative rule). Weaker than a language model; the
 * control samples say by how much.
 */
import { type AdmissionPolicy, admit, en, extractCandidates, ko, triageMessage } from '@factledger/domain';
import { cosineSimilarity, type Embedder } from '@factledger/embeddings';
import type { JudgeInput, JudgeTask, JudgeVerdict, MemoryJudge } from './memory-judge';

/** First-person declarations and life events, phrased without the gate's keywords. */
const DECLARATION = new RegExp(
  String.raw`\b(?:i|we)\s+(?:(?:really|truly|finally|just|officially)\s+)?(?:want to (?:build|spend|be with|marry|share)|${en.declarationVerbs.join('|')})\b|\b(?:my|our)\s+(?:first|new)\s+\w+|(?:${ko.declarationWords.join('|')})`,
  'i',
);

export interface RuleJudgeOptions {
  /** Keep when the text is at least this close (cosine) to one of the type's examples. */
  keepSimilarity?: number;
  /** A declaration keeps when it is at least this close; null: a declaration alone keeps. */
  declarationSimilarity?: number;
}

export class RuleJudge implements MemoryJudge {
  readonly name = 'rules';

  constructor(
    private readonly policy: AdmissionPolicy,
    private readonly embedder?: Embedder,
    private readonly options: RuleJudgeOptions = {},
  ) {}

  async judge(task: JudgeTask, items: JudgeInput[]): Promise<JudgeVerdict[]> {
    const examples = this.policy.types[task.type]?.examples ?? [];
    const vectors = this.embedder && examples.length ? await this.embedder.embed([...examples, ...items.map((i) => i.text)]) : null;
    const exampleVectors = vectors?.slice(0, examples.length) ?? [];
    // The generic gates only: no type of the population is gated here (no keywords, no similarity cut).
    const ungated: AdmissionPolicy = { ...this.policy, types: {} };
    return items.map((item, i): JudgeVerdict => {
      const v = (action: JudgeVerdict['action'], label: string, reason: string, type?: string): JudgeVerdict => ({ ref: item.ref, action, label, reason, ...(type ? { type } : {}) });
      const triage = triageMessage(item.text);
      if (triage.kind === 'ask') return v('quarantine', 'question', 'a question, not something the speaker told');
      const candidates = extractCandidates({ text: item.text, speaker: item.speaker as never, at: new Date(item.saidAt), triage, cues: {} });
      const gated = admit({ candidates, policy: ungated, language: triage.language, similarity: () => null });
      const rejected = gated.find((d) => d.verdict === 'rejected');
      if (rejected && gated.every((d) => d.verdict === 'rejected')) {
        const roleplay = rejected.gates.some((g) => g.gate === 'role-play guard' && !g.passed);
        return v('quarantine', roleplay ? 'roleplay' : 'echo', rejected.reason);
      }
      const fact = gated.find((d) => d.candidate.memoryKind === 'fact' && d.type && d.type !== task.type && task.retypeTo.includes(d.type));
      if (fact) return v('retype', 'retype', `a ${fact.type} fact (${fact.candidate.subject} ${fact.candidate.relation} ${fact.candidate.value}), not a ${task.type}`, fact.type!);
      const similarity = vectors ? Math.max(...exampleVectors.map((e) => cosineSimilarity(e, vectors[examples.length + i]!))) : null;
      const keepAt = this.options.keepSimilarity ?? 0.5;
      if (similarity !== null && similarity >= keepAt) return v('keep', 'real', `cosine ${similarity.toFixed(2)} to the ${task.type} examples`);
      const declared = DECLARATION.test(item.text);
      const declarationAt = this.options.declarationSimilarity ?? 0.25;
      if (declared && (similarity === null || similarity >= declarationAt)) {
        return v('keep', 'real', `a first-person declaration or life event${similarity === null ? '' : ` (cosine ${similarity.toFixed(2)})`}`);
      }
      return v('quarantine', 'echo', `nothing marks it as a ${task.type}${similarity === null ? '' : ` (cosine ${similarity.toFixed(2)} to its examples)`}; when in doubt, out of the read paths`);
    });
  }
}
