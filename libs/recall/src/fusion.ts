/**
 * Ranking, pure: how a candidate's scores become one number and a yes-or-no on relevance.
 *
 * - Lexical evidence: BM25 of the query's stems, plus a share of the BM25 of the turns said
 *   just before and after it (a reply is about what the turn before it asked), raised when the
 *   query names the memory's speaker.
 * - Semantic evidence: cosine similarity of the embeddings, raised a little for a named speaker.
 * - Fused: a weighted sum of the two, each scaled to the sub-query's candidates (lexical by its
 *   best, cosine from its lowest to its highest), so that neither scale dominates by its units.
 *   Several sub-queries merge by their best: a version's score is its highest fused score over
 *   the sub-queries it is relevant to.
 * - Relevance: meaning alone (a high cosine), the query naming the memory's key (a fact's
 *   relation, the slots it speaks of), stems that cover part of the query together with some
 *   meaning, trigrams, or being the reply to a relevant turn that asked something.
 * - Diversity: maximal marginal relevance among the best, with the turns of a day (a heading)
 *   already drawn from raised a little (session cohesion).
 */
import { agentTurn } from '@factledger/domain';
import { speakerLabel } from '@factledger/embeddings';
import { speaksInFirstPerson } from './query-hygiene';

export interface Scored {
  memoryId: string;
  /** Cosine similarity of the query's and the memory's embeddings; null when not embedded yet. */
  cosine: number | null;
  /** Cosine similarity of the query to the nearest of the memory's passages (its sentences); null when it has none. */
  passageCosine: number | null;
  /** Okapi BM25 of the query's stems (English configuration, IDF from the tenant's index). */
  bm25: number;
  /** Share of the query's IDF that the memory's own stems hold, 0..1. */
  coverage: number;
  /** Share of the query's IDF that the memory's key holds (a fact's relation, the names of its slots), 0..1. */
  keyCoverage: number;
  /** pg_trgm word similarity of the query to the memory's text, 0..1. */
  trigram: number;
}

/** A candidate with what ranking derives for it. */
export interface Ranked extends Scored {
  /** BM25 that the neighbouring turns lend it (see `neighbourContext`). */
  context: number;
  /** The query names the memory's speaker (a transcript line "Name: …", see `speakerLabel`). */
  namedSpeaker: boolean;
}

export interface Thresholds {
  /** Cosine similarity that admits a version on meaning alone. */
  cosine: number;
  /** Cosine similarity of one of its passages (sentences) that admits a version on meaning alone. */
  passageCosine: number;
  /** Cosine similarity a version needs besides its stems covering part of the query (a shared word alone is not relevance). */
  lexicalCosine: number;
  /** Share of the query's IDF a version's stems must cover to count as a lexical match. */
  coverage: number;
  /** Share of the query's IDF a version's key must cover to be asked for by name, whatever its cosine. */
  keyCoverage: number;
  /** Trigram word similarity that admits a version on its own (names, identifiers, Korean). */
  trigram: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = { cosine: 0.4, passageCosine: 0.45, lexicalCosine: 0.2, coverage: 0.1, keyCoverage: 0.25, trigram: 0.55 };

export interface RankingWeights {
  /** Weight of the lexical evidence in the fused score; the semantic evidence gets the rest. */
  lexical: number;
  /** Share of the BM25 of the turn before that a turn takes on; `afterQuestion` when that turn asked something. */
  before: number;
  afterQuestion: number;
  /** Share of the BM25 of the turn after. */
  after: number;
  /** Factor on the lexical evidence, and amount added to the cosine, when the query names the speaker. */
  speakerLexical: number;
  speakerCosine: number;
  /** λ of maximal marginal relevance: 1 ranks by relevance alone, lower trades it for variety. */
  diversity: number;
  /** Share of a passage's lead over its whole memory's cosine that counts (see `semanticCosine`). */
  passage: number;
  /**
   * Session cohesion: in diversity's choice, an item's relevance is raised by this share for every
   * item already taken under its heading (the day, speaker and type it is shown under). A day of
   * conversation that held one relevant turn likely holds the next one the question needs, and
   * turns under one heading share its tokens. 0 turns it off.
   */
  cohesion: number;
}

export const DEFAULT_WEIGHTS: RankingWeights = { lexical: 0.5, before: 0.2, afterQuestion: 0.6, after: 0.2, speakerLexical: 2, speakerCosine: 0.15, diversity: 0.9, passage: 0.5, cohesion: 0.1 };

/**
 * The meaning a memory shares with the query: its whole cosine, raised by `passage` × the lead of
 * its nearest passage over it (1: the better of the two; 0: passages ignored). A long turn is
 * about what its best sentence is about, even when its greetings pull its whole embedding away.
 */
export function semanticCosine(c: Pick<Scored, 'cosine' | 'passageCosine'>, passage: number): number | null {
  if (c.cosine === null) return null;
  return c.passageCosine === null ? c.cosine : c.cosine + passage * Math.max(0, c.passageCosine - c.cosine);
}

/** True when a turn asks something (a question mark outside its quoted or shared parts is enough). */
export const asks = (text: string): boolean => /[?？]/u.test(text.replace(/\[[^\]]*\]/gu, ''));

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `query` names `speaker` as a word of its own (any case; "Caroline's" names Caroline). */
export function namesSpeaker(query: string, speaker: string | null): boolean {
  if (!speaker) return false;
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(speaker)}(?=$|[^\\p{L}\\p{N}])`, 'iu').test(query);
}

/**
 * Which memories a query speaks of by who said them, decided once per query: a memory whose
 * transcript line opens with a name the query names ("Caroline: …" for "Caroline's"), or, when
 * the query asks in the first person ("Have I …", "my project"), a turn of the user's. A query is
 * the user's own message (R10): its "I" is the user, and the assistant's replies about the
 * user's project say what the user did only at second hand. A user's turn is one recorded as
 * the user's that is no agent's turn by its label (@factledger/domain `agentTurn`: "assistant: …")
 * and opens with no other name. `firstPerson` defaults to the query's own wording; a side of a
 * pair takes its whole question's (query-hygiene.ts, `CleanQuery.firstPerson`).
 */
export function speakerOfQuery(query: string, firstPerson = speaksInFirstPerson(query)): (memory: { text: string; speaker: string }) => boolean {
  return ({ text, speaker }) => {
    const label = speakerLabel(text);
    if (namesSpeaker(query, label)) return true;
    return firstPerson && speaker === 'user' && !agentTurn(text) && (label === null || label.toLowerCase() === 'user');
  };
}

/** A turn's place among the turns found: the ones said just before and after it, where known. */
export interface Adjacency {
  before: Map<string, string>;
  after: Map<string, string>;
}

/**
 * The BM25 each turn takes on from its neighbours: `before` (or `afterQuestion`, when the turn
 * before asked something) × the turn before's BM25, plus `after` × the turn after's. Only
 * neighbours among the candidates count (a turn not found has no BM25 known).
 */
export function neighbourContext(candidates: ReadonlyMap<string, { bm25: number; text: string }>, adjacency: Adjacency, w: RankingWeights): Map<string, number> {
  const out = new Map<string, number>();
  for (const id of candidates.keys()) {
    let lent = 0;
    const prev = candidates.get(adjacency.before.get(id) ?? '');
    if (prev) lent += (asks(prev.text) ? w.afterQuestion : w.before) * prev.bm25;
    const next = candidates.get(adjacency.after.get(id) ?? '');
    if (next) lent += w.after * next.bm25;
    out.set(id, lent);
  }
  return out;
}

/** The two kinds of evidence of a candidate and their weighted sum, as the trace shows them. */
export interface Fused {
  lexical: number;
  semantic: number;
  fused: number;
}

/**
 * One sub-query's candidates fused (see the module's note): lexical = (BM25 + context) × the
 * speaker factor, scaled by the best; when trigrams were searched (a word full text cannot split),
 * the trigram similarity counts as lexical evidence too. Semantic = cosine (+ the speaker amount),
 * scaled from lowest to highest among the embedded; 0 without an embedding.
 */
export function fuse(candidates: readonly Ranked[], w: RankingWeights, useTrigrams: boolean): Map<string, Fused> {
  const lexicalOf = (c: Ranked): number => (c.bm25 + c.context) * (c.namedSpeaker ? w.speakerLexical : 1);
  const cosineOf = (c: Ranked): number | null => {
    const cos = semanticCosine(c, w.passage);
    return cos === null ? null : cos + (c.namedSpeaker ? w.speakerCosine : 0);
  };
  const best = Math.max(0, ...candidates.map(lexicalOf));
  const cosines = candidates.map(cosineOf).filter((x): x is number => x !== null);
  const [low, high] = [Math.min(...cosines), Math.max(...cosines)];
  const out = new Map<string, Fused>();
  for (const c of candidates) {
    const lexical = Math.max(best > 0 ? lexicalOf(c) / best : 0, useTrigrams ? c.trigram : 0);
    const cos = cosineOf(c);
    const semantic = cos === null ? 0 : high > low ? (cos - low) / (high - low) : 1;
    out.set(c.memoryId, { lexical, semantic, fused: w.lexical * lexical + (1 - w.lexical) * semantic });
  }
  return out;
}

/**
 * Several sub-queries' fused scores merged: a version's score is its best over the sub-queries it
 * was kept in. Each sub-query asks for something of its own (a question of a message, a side of a
 * pair a question relates), and the version that answers one of them best is worth as much as the
 * one that answers another. A sum would favour a long text that touches every sub-query a little
 * over the one that answers a single sub-query outright.
 */
export function mergeByBest(parts: readonly { fused: ReadonlyMap<string, Fused>; kept: ReadonlySet<string> }[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of parts) {
    for (const id of part.kept) out.set(id, Math.max(out.get(id) ?? 0, part.fused.get(id)!.fused));
  }
  return out;
}

/** Why a candidate may enter the detail channel on its own scores, or null when it is not relevant enough. */
export function relevance(c: Scored, t: Thresholds): string | null {
  if (c.cosine !== null && c.cosine >= t.cosine) return `cosine ${c.cosine.toFixed(3)} ≥ ${t.cosine}`;
  if (c.passageCosine !== null && c.passageCosine >= t.passageCosine) return `a passage's cosine ${c.passageCosine.toFixed(3)} ≥ ${t.passageCosine}`;
  if (c.keyCoverage > 0 && c.keyCoverage >= t.keyCoverage) return `the query names its key (${(100 * c.keyCoverage).toFixed(0)}% of the query's IDF)`;
  if (c.coverage > 0 && c.coverage >= t.coverage && (c.cosine === null || c.cosine >= t.lexicalCosine)) {
    return `stems matched (${(100 * c.coverage).toFixed(0)}% of the query's IDF, BM25 ${c.bm25.toFixed(2)})${c.cosine === null ? ', not embedded yet' : ` and cosine ${c.cosine.toFixed(3)} ≥ ${t.lexicalCosine}`}`;
  }
  if (c.trigram >= t.trigram) return `trigram similarity ${c.trigram.toFixed(3)} ≥ ${t.trigram}`;
  return null;
}

/**
 * The relevant candidates of one sub-query and why: each on its own scores (`relevance`), and
 * the reply to a relevant turn that asked something ("Yes, last Tuesday!" after "When did you
 * go?"), which its own words could never show.
 */
export function relevantOf(candidates: readonly (Scored & { text: string })[], adjacency: Adjacency, t: Thresholds): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of candidates) {
    const why = relevance(c, t);
    if (why) out.set(c.memoryId, why);
  }
  const byId = new Map(candidates.map((c) => [c.memoryId, c]));
  for (const c of candidates) {
    if (out.has(c.memoryId)) continue;
    const prev = adjacency.before.get(c.memoryId);
    if (prev && out.has(prev) && asks(byId.get(prev)!.text)) out.set(c.memoryId, `reply to a relevant question (${prev})`);
  }
  return out;
}

/**
 * Greedy maximal marginal relevance: repeatedly takes the item with the best
 * λ·relevance·(1 + cohesion)^(items already taken in its group) − (1 − λ)·(highest cosine to an
 * item already taken). `similarity` gives the cosine of two items, or null (no embedding yet:
 * dissimilar to everything); without `cohesion` groups play no part. O(n²) similarities: each
 * item's redundancy and group count are updated against the one item just taken.
 */
export function maximalMarginalRelevance<T>(
  items: { item: T; score: number }[],
  similarity: (a: T, b: T) => number | null,
  lambda = 0.7,
  cohesion: { groupOf: (item: T) => string; factor: number } | null = null,
): { item: T; score: number; redundancy: number; sameGroup: number }[] {
  const top = Math.max(...items.map((i) => i.score), 1e-9);
  const raise = 1 + (cohesion?.factor ?? 0);
  // Each candidate's relevance part, raised once per item taken under its group.
  const left = items.map((x) => ({ item: x.item, score: x.score, redundancy: 0, sameGroup: 0, group: cohesion?.groupOf(x.item), relevance: lambda * (x.score / top) }));
  const taken: { item: T; score: number; redundancy: number; sameGroup: number }[] = [];
  while (left.length) {
    let best = 0;
    let bestValue = -Infinity;
    for (let i = 0; i < left.length; i++) {
      const c = left[i]!;
      const value = c.relevance - (1 - lambda) * c.redundancy;
      if (value > bestValue) [best, bestValue] = [i, value];
    }
    const chosen = left.splice(best, 1)[0]!;
    taken.push({ item: chosen.item, score: chosen.score, redundancy: chosen.redundancy, sameGroup: chosen.sameGroup });
    for (const c of left) {
      c.redundancy = Math.max(c.redundancy, similarity(c.item, chosen.item) ?? 0);
      if (chosen.group !== undefined && c.group === chosen.group) {
        c.sameGroup++;
        c.relevance *= raise;
      }
    }
  }
  return taken;
}
