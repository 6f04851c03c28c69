/** The offline judge, with the real embedding model and no database. */
import { CachedEmbedder, InMemoryEmbeddingCache, UseLiteEmbedder } from '@factledger/embeddings';
import { DEFAULT_ADMISSION_POLICY } from '../ingest/admission-policy';
import { RuleJudge } from './rule-judge';

const embedder = new CachedEmbedder(new UseLiteEmbedder(), new InMemoryEmbeddingCache());
const task = { type: 'milestone', description: 'relationship milestone', retypeTo: ['fact', 'preference', 'profile'] };
const items = (texts: string[]) => texts.map((text, i) => ({ ref: String(i), text, speaker: 'user', saidAt: '2026-12-01T00:00:00Z' }));

describe('RuleJudge', () => {
  const texts = [
    'I want to build a life with you.',
    'We got engaged last night!',
    'haha ok',
    'What time is it?',
    '*smiles softly and leans closer*',
    'I moved to Busan last week.',
    'I like iced americano.',
    'The weather was nice, I guess.',
  ];

  it('judges by what a memory says: keeps declarations without any gate keyword, quarantines noise, retypes facts', async () => {
    const verdicts = await new RuleJudge(DEFAULT_ADMISSION_POLICY, embedder).judge(task, items(texts));
    expect(verdicts.map((v) => (v.action === 'retype' ? `retype:${v.type}` : v.action))).toEqual([
      'keep',
      'keep',
      'quarantine',
      'quarantine',
      'quarantine',
      'retype:profile',
      'retype:preference',
      'quarantine',
    ]);
    expect(verdicts.map((v) => v.label)).toEqual(['real', 'real', 'echo', 'question', 'roleplay', 'retype', 'retype', 'echo']);
  });

  it('never uses the admission keyword gate: the same verdicts under a policy whose keywords nothing has', async () => {
    const strict = {
      ...DEFAULT_ADMISSION_POLICY,
      types: { ...DEFAULT_ADMISSION_POLICY.types, milestone: { ...DEFAULT_ADMISSION_POLICY.types.milestone!, requiredKeywords: ['zzz-never'], minSimilarity: 0.99 } },
    };
    const a = await new RuleJudge(DEFAULT_ADMISSION_POLICY, embedder).judge(task, items(texts));
    const b = await new RuleJudge(strict, embedder).judge(task, items(texts));
    expect(b.map((v) => v.action)).toEqual(a.map((v) => v.action));
  });
});
