import { cosineSimilarity } from '@factledger/embeddings';
import { DEFAULT_THRESHOLDS, maximalMarginalRelevance, reciprocalRankFusion, relevance, type Scored, weightedReciprocalRankFusion } from './fusion';

type WithVector = Scored & { embedding: Float32Array | null };
const c = (memoryId: string, cosine: number | null, textRank: number, trigram: number, embedding: number[] | null = null): WithVector => ({
  memoryId,
  cosine,
  textRank,
  trigram,
  embedding: embedding ? Float32Array.from(embedding) : null,
});
const similarity = (a: WithVector, b: WithVector): number | null => (a.embedding && b.embedding ? cosineSimilarity(a.embedding, b.embedding) : null);

describe('fusion', () => {
  it('ranks a candidate that several retrievers agree on above one that a single retriever likes best', () => {
    const fused = reciprocalRankFusion([c('agreed', 0.6, 0.05, 0.5), c('vector-only', 0.7, 0, 0), c('none', null, 0, 0)]);
    expect(fused.get('agreed')!).toBeGreaterThan(fused.get('vector-only')!);
    expect(fused.get('none')).toBe(0);
  });

  it('merges sub-queries by weight: equal weights give each intent the same say, and what answers both ranks first', () => {
    // Sub-query A's look-alikes score far higher than anything of B's, yet B's best ties with A's best.
    const a = { weight: 0.5, candidates: [c('a1', 0.95, 0.3, 0.9), c('a2', 0.94, 0.29, 0.88), c('a3', 0.93, 0.28, 0.87), c('both', 0.5, 0.01, 0.2)] };
    const b = { weight: 0.5, candidates: [c('b1', 0.6, 0.05, 0.6), c('b2', 0.55, 0.04, 0.5), c('both', 0.5, 0.03, 0.3)] };
    const fused = weightedReciprocalRankFusion([a, b]);
    expect(fused.get('b1')).toBeCloseTo(fused.get('a1')!, 12);
    const order = [...fused].sort((x, y) => y[1] - x[1]).map(([id]) => id);
    expect(order[0]).toBe('both');
    expect(order.indexOf('b2')).toBeLessThan(order.indexOf('a3'));
    // A heavier sub-query wins the tie; one sub-query of weight 1 is plain RRF.
    const heavier = weightedReciprocalRankFusion([{ ...a, weight: 0.7 }, { ...b, weight: 0.3 }]);
    expect(heavier.get('a1')!).toBeGreaterThan(heavier.get('b1')!);
    expect(weightedReciprocalRankFusion([{ weight: 1, candidates: b.candidates }])).toEqual(reciprocalRankFusion(b.candidates));
  });

  it('admits on meaning, on a content word with some meaning, or on trigrams, and says which', () => {
    expect(relevance(c('a', 0.55, 0, 0), DEFAULT_THRESHOLDS)).toMatch(/^cosine 0.550/);
    expect(relevance(c('b', 0.35, 0.02, 0.1), DEFAULT_THRESHOLDS)).toMatch(/^content words matched/);
    expect(relevance(c('c', 0.1, 0.02, 0.1), DEFAULT_THRESHOLDS)).toBeNull(); // a shared word is not relevance
    expect(relevance(c('d', null, 0.02, 0), DEFAULT_THRESHOLDS)).toMatch(/not embedded yet/);
    expect(relevance(c('e', 0.2, 0, 0.7), DEFAULT_THRESHOLDS)).toMatch(/^trigram similarity/);
    expect(relevance(c('f', 0.2, 0, 0.2), DEFAULT_THRESHOLDS)).toBeNull();
  });

  it('demotes a near-duplicate below a less relevant but different item', () => {
    const items = [
      { item: c('first', 0.9, 0, 0, [1, 0, 0]), score: 1 },
      { item: c('twin', 0.88, 0, 0, [0.99, 0.01, 0]), score: 0.95 },
      { item: c('other', 0.6, 0, 0, [0, 1, 0]), score: 0.8 },
    ];
    const order = maximalMarginalRelevance(items, similarity).map((x) => x.item.memoryId);
    expect(order).toEqual(['first', 'other', 'twin']);
  });

  it('treats an item without an embedding as unlike every other', () => {
    const items = [
      { item: c('first', 0.9, 0, 0, [1, 0, 0]), score: 1 },
      { item: c('fresh', null, 0.1, 0, null), score: 0.9 },
      { item: c('twin', 0.88, 0, 0, [1, 0, 0]), score: 0.95 },
    ];
    const taken = maximalMarginalRelevance(items, similarity);
    expect(taken.map((x) => x.item.memoryId)).toEqual(['first', 'fresh', 'twin']);
    expect(taken.find((x) => x.item.memoryId === 'fresh')!.redundancy).toBe(0);
  });
});
