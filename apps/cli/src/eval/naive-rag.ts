/**
 * The naive-RAG baseline of `factledger eval --baseline naive-rag`: every asserted text goes into
 * a flat vector list, and a query returns the cosine top-k texts that fit the budget — no keys,
 * no supersession, no lifecycle, no gates, no as-of. The same embedder, tokenizer and rendering
 * as recall, so that the difference between the two runs is the memory model alone.
 */
import { cosineSimilarity, type Embedder, type Embedding } from '@factledger/embeddings';
import { type ContextItem, fitBudget, type TokenCounter } from '@factledger/recall';

export interface BaselineContext {
  text: string;
  tokens: number;
  budgetTokens: number;
  items: ContextItem[];
}

export class NaiveRag {
  private readonly docs: { tenant: string; text: string; vector: Embedding; at: Date }[] = [];

  constructor(
    private readonly embedder: Embedder,
    private readonly tokens: TokenCounter,
    private readonly k = 5,
  ) {}

  async add(tenant: string, text: string, at: Date): Promise<void> {
    const [vector] = await this.embedder.embed([text]);
    this.docs.push({ tenant, text, vector: vector!, at });
  }

  async query(tenant: string, message: string, budgetTokens = 400): Promise<BaselineContext> {
    const [q] = await this.embedder.embed([message]);
    const top = this.docs
      .filter((d) => d.tenant === tenant)
      .map((d) => ({ d, score: cosineSimilarity(q!, d.vector) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, this.k);
    const items: ContextItem[] = top.map(({ d }, i) => ({
      memoryId: `doc-${i}`,
      channel: 'detail',
      text: d.text,
      type: 'text',
      speaker: 'unknown',
      source: null,
      recordedAt: d.at,
    }));
    const cut = fitBudget(items, budgetTokens, 0, (t) => this.tokens.count(t));
    return { text: cut.text, tokens: cut.tokens, budgetTokens, items: cut.included };
  }
}
