/**
 * Ranking, pure: reciprocal rank fusion of the retrievers' rankings, the relevance threshold of
 * the detail channel, and maximal marginal relevance for diversity.
 */
export interface Scored {
  memoryId: string;
  /** Cosine similarity of the query's and the memory's embeddings; null when not embedded yet. */
  cosine: number | null;
  /** PostgreSQL ts_rank of the content words (simple configuration); 0 when no word matched. */
  textRank: number;
  /** pg_trgm word similarity of the query to the memory's text, 0..1. */
  trigram: number;
}

export interface Thresholds {
  /** Cosine similarity that admits a version on meaning alone. */
  cosine: number;
  /** Cosine similarity a version needs besides a content-word match (a shared word alone is not relevance). */
  lexicalCosine: number;
  /** Trigram word similarity that admits a version on its own (names, identifiers, Korean). */
  trigram: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = { cosine: 0.5, lexicalCosine: 0.3, trigram: 0.55 };

/** Standard RRF constant: damps the head of each ranking so that agreement between retrievers wins. */
const RRF_K = 60;

/** Each candidate's fused score: Σ 1 / (k + rank) over the retrievers that ranked it. */
export function reciprocalRankFusion(candidates: Scored[]): Map<string, number> {
  const fused = new Map<string, number>(candidates.map((c) => [c.memoryId, 0]));
  const rankings: [string, (c: Scored) => number | null][] = [
    ['cosine', (c) => c.cosine],
    ['text', (c) => (c.textRank > 0 ? c.textRank : null)],
    ['trigram', (c) => (c.trigram > 0 ? c.trigram : null)],
  ];
  for (const [, score] of rankings) {
    const ranked = candidates.filter((c) => score(c) !== null).sort((a, b) => score(b)! - score(a)!);
    ranked.forEach((c, i) => fused.set(c.memoryId, fused.get(c.memoryId)! + 1 / (RRF_K + i + 1)));
  }
  return fused;
}

/** Why a candidate may enter the detail channel, or null when it is not relevant enough. */
export function relevance(c: Scored, t: Thresholds): string | null {
  if (c.cosine !== null && c.cosine >= t.cosine) return `cosine ${c.cosine.toFixed(3)} ≥ ${t.cosine}`;
  if (c.textRank > 0 && (c.cosine === null || c.cosine >= t.lexicalCosine)) {
    return `content words matched (ts_rank ${c.textRank.toFixed(3)})${c.cosine === null ? ', not embedded yet' : ` and cosine ${c.cosine.toFixed(3)} ≥ ${t.lexicalCosine}`}`;
  }
  if (c.trigram >= t.trigram) return `trigram similarity ${c.trigram.toFixed(3)} ≥ ${t.trigram}`;
  return null;
}

/**
 * Greedy maximal marginal relevance: repeatedly takes the item with the best
 * λ·relevance − (1 − λ)·(highest cosine to an item already taken). `similarity` gives the cosine
 * of two items, or null (no embedding yet: dissimilar to everything). O(n²) similarities: each
 * item's redundancy is updated against the one item just taken.
 */
export function maximalMarginalRelevance<T>(
  items: { item: T; score: number }[],
  similarity: (a: T, b: T) => number | null,
  lambda = 0.7,
): { item: T; score: number; redundancy: number }[] {
  const left = items.map((x) => ({ ...x, redundancy: 0 }));
  const taken: { item: T; score: number; redundancy: number }[] = [];
  const top = Math.max(...items.map((i) => i.score), 1e-9);
  while (left.length) {
    let best = 0;
    for (let i = 1; i < left.length; i++) {
      const value = (c: (typeof left)[number]): number => lambda * (c.score / top) - (1 - lambda) * c.redundancy;
      if (value(left[i]!) > value(left[best]!)) best = i;
    }
    const [chosen] = left.splice(best, 1);
    taken.push(chosen!);
    for (const c of left) c.redundancy = Math.max(c.redundancy, similarity(c.item, chosen!.item) ?? 0);
  }
  return taken;
}
