import { cosineSimilarity } from '@factledger/embeddings';
import { DEFAULT_THRESHOLDS, maximalMarginalRelevance, reciprocalRankFusion, relevance, type Scored } from './fusion';

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
