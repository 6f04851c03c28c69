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
  return weightedReciprocalRankFusion([{ weight: 1, candidates }]);
}

/**
 * Several sub-queries' candidates merged by weight: each sub-query's retrievers rank that
 * sub-query's candidates (scored against it), and a candidate's fused score is
 * Σ weight × 1 / (k + rank) over every (sub-query, retriever) ranking it appears in. With equal
 * weights each intent of a message has the same say, whichever one its wording favours, and a
 * memory that answers two of them ranks above one that answers a single one.
 */
export function weightedReciprocalRankFusion(parts: { weight: number; candidates: Scored[] }[]): Map<string, number> {
  const fused = new Map<string, number>();
  for (const part of parts) for (const c of part.candidates) fused.set(c.memoryId, 0);
  const rankings: ((c: Scored) => number | null)[] = [(c) => c.cosine, (c) => (c.textRank > 0 ? c.textRank : null), (c) => (c.trigram > 0 ? c.trigram : null)];
  for (const { weight, candidates } of parts) {
    for (const score of rankings) {
      const ranked = candidates.filter((c) => score(c) !== null).sort((a, b) => score(b)! - score(a)!);
      ranked.forEach((c, i) => fused.set(c.memoryId, fused.get(c.memoryId)! + weight / (RRF_K + i + 1)));
    }
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
