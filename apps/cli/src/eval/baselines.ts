/**
 * The baselines of `factledger eval --baseline …`: what a plain store would put into the same
 * prompt. Every asserted text (and every message, as it came) goes into a flat list per tenant,
 * with no keys, no supersession, no lifecycle, no gates and no as-of; a query ranks the list and
 * fills the budget in rank order. The same embedder and tokenizer as recall, so that a difference
 * between runs is the memory model and the ranking alone.
 *
 * - `naive-rag`: the cosine top 5, rendered in recall's frame (the original baseline);
 * - `bm25`: Okapi BM25 (k1 1.2, b 0.75) over lower-cased letter-and-digit words;
 * - `rrf`: reciprocal rank fusion (k 60) of the BM25 and cosine rankings.
 *
 * `bm25` and `rrf` show raw texts, one a line, no frame and no per-item metadata, taking texts in
 * rank order while they fit (a text that does not fit is skipped, the next one tried).
 */
import { cosineSimilarity, type Embedder, type Embedding } from '@factledger/embeddings';
import { type ContextItem, fitBudget, type TokenCounter } from '@factledger/recall';

export const BASELINES = ['naive-rag', 'bm25', 'rrf'] as const;
export type BaselineName = (typeof BASELINES)[number];

export interface BaselineContext {
  text: string;
  tokens: number;
  budgetTokens: number;
  items: ContextItem[];
}

export interface Baseline {
  readonly name: BaselineName;
  add(tenant: string, text: string, at: Date): Promise<void>;
  query(tenant: string, message: string, budgetTokens?: number): Promise<BaselineContext>;
}

interface Doc {
  text: string;
  /** Embedded when a ranking first needs it (BM25 never does). */
  vector: Embedding | null;
  at: Date;
  words: string[];
}

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Okapi BM25 of every doc for the query's distinct words, IDF ln(1 + (N − df + ½) / (df + ½)). */
export function bm25Scores(docs: readonly string[][], query: readonly string[], k1 = 1.2, b = 0.75): number[] {
  const df = new Map<string, number>();
  for (const words of docs) for (const w of new Set(words)) df.set(w, (df.get(w) ?? 0) + 1);
  const n = docs.length;
  const avgLength = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, n);
  const terms = [...new Set(query)].map((w) => ({ w, idf: Math.log(1 + (n - (df.get(w) ?? 0) + 0.5) / ((df.get(w) ?? 0) + 0.5)) }));
  return docs.map((words) => {
    const tf = new Map<string, number>();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    let score = 0;
    for (const { w, idf } of terms) {
      const f = tf.get(w) ?? 0;
      if (f) score += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * words.length) / avgLength));
    }
    return score;
  });
}

/** Indices ordered by score, best first (ties keep insertion order). */
const ranked = (scores: readonly number[]): number[] =>
  scores
    .map((s, i) => [s, i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .map(([, i]) => i);

/** Σ 1 / (k + rank) over the rankings, best first. */
export function reciprocalRankOrder(rankings: readonly number[][], k = 60): number[] {
  const fused = new Map<number, number>();
  for (const ranking of rankings) ranking.forEach((i, rank) => fused.set(i, (fused.get(i) ?? 0) + 1 / (k + rank + 1)));
  return [...fused].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([i]) => i);
}

class FlatStore {
  private readonly docs = new Map<string, Doc[]>();
  constructor(private readonly embedder: Embedder) {}

  async add(tenant: string, text: string, at: Date): Promise<void> {
    const list = this.docs.get(tenant) ?? [];
    list.push({ text, vector: null, at, words: wordsOf(text) });
    this.docs.set(tenant, list);
  }

  of(tenant: string): Doc[] {
    return this.docs.get(tenant) ?? [];
  }

  async cosines(tenant: string, message: string): Promise<number[]> {
    const docs = this.of(tenant);
    const missing = docs.filter((d) => !d.vector);
    if (missing.length) (await this.embedder.embed(missing.map((d) => d.text))).forEach((v, i) => (missing[i]!.vector = v));
    const [q] = await this.embedder.embed([message]);
    return docs.map((d) => cosineSimilarity(q!, d.vector!));
  }
}

const asItem = (d: Doc, i: number): ContextItem => ({ memoryId: `doc-${i}`, channel: 'detail', text: d.text, type: 'text', speaker: 'unknown', source: null, saidAt: d.at });

/** Raw texts in `order`, one a line, while the whole stays within the budget. */
function fillRaw(docs: Doc[], order: number[], budgetTokens: number, tokens: TokenCounter): BaselineContext {
  const taken: number[] = [];
  let used = 0;
  for (const i of order) {
    const cost = tokens.count(oneLine(docs[i]!.text)) + (taken.length ? 1 : 0);
    if (used + cost > budgetTokens) continue;
    taken.push(i);
    used += cost;
  }
  let lines = taken.map((i) => oneLine(docs[i]!.text));
  let count = tokens.count(lines.join('\n'));
  while (count > budgetTokens && lines.length) {
    taken.pop();
    lines = lines.slice(0, -1);
    count = tokens.count(lines.join('\n'));
  }
  return { text: lines.join('\n'), tokens: count, budgetTokens, items: taken.map((i) => asItem(docs[i]!, i)) };
}

class NaiveRag implements Baseline {
  readonly name = 'naive-rag';
  constructor(
    private readonly store: FlatStore,
    private readonly tokens: TokenCounter,
    private readonly k = 5,
  ) {}
  add(tenant: string, text: string, at: Date): Promise<void> {
    return this.store.add(tenant, text, at);
  }
  async query(tenant: string, message: string, budgetTokens = 400): Promise<BaselineContext> {
    const docs = this.store.of(tenant);
    const top = ranked(await this.store.cosines(tenant, message)).slice(0, this.k);
    const cut = fitBudget(
      top.map((i) => asItem(docs[i]!, i)),
      budgetTokens,
      0,
      (t) => this.tokens.count(t),
    );
    return { text: cut.text, tokens: cut.tokens, budgetTokens, items: cut.included };
  }
}

class Bm25Baseline implements Baseline {
  readonly name = 'bm25';
  constructor(
    private readonly store: FlatStore,
    private readonly tokens: TokenCounter,
  ) {}
  add(tenant: string, text: string, at: Date): Promise<void> {
    return this.store.add(tenant, text, at);
  }
  async query(tenant: string, message: string, budgetTokens = 400): Promise<BaselineContext> {
    const docs = this.store.of(tenant);
    return fillRaw(
      docs,
      ranked(
        bm25Scores(
          docs.map((d) => d.words),
          wordsOf(message),
        ),
      ),
      budgetTokens,
      this.tokens,
    );
  }
}

class RrfBaseline implements Baseline {
  readonly name = 'rrf';
  constructor(
    private readonly store: FlatStore,
    private readonly tokens: TokenCounter,
  ) {}
  add(tenant: string, text: string, at: Date): Promise<void> {
    return this.store.add(tenant, text, at);
  }
  async query(tenant: string, message: string, budgetTokens = 400): Promise<BaselineContext> {
    const docs = this.store.of(tenant);
    const lexical = ranked(
      bm25Scores(
        docs.map((d) => d.words),
        wordsOf(message),
      ),
    );
    const semantic = ranked(await this.store.cosines(tenant, message));
    return fillRaw(docs, reciprocalRankOrder([lexical, semantic]), budgetTokens, this.tokens);
  }
}

export function createBaseline(name: BaselineName, embedder: Embedder, tokens: TokenCounter): Baseline {
  const store = new FlatStore(embedder);
  if (name === 'bm25') return new Bm25Baseline(store, tokens);
  if (name === 'rrf') return new RrfBaseline(store, tokens);
  return new NaiveRag(store, tokens);
}
