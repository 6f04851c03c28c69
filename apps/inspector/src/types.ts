/**
 * The shapes of the API's replies the inspector reads: the server's own view types, imported as
 * types only (erased from the bundle; the inspector reaches the ledger through HTTP alone), so that
 * a change to a reply fails this build rather than the page.
 */
export type {
  AnswerView,
  BatchView,
  IngestResult,
  BeliefDiffView as BeliefDiff,
  BeliefView as Belief,
  BelievedView as Believed,
  HistoryView as HistoryEntry,
  MemoryView as Memory,
} from '@factledger/ledger';
export type { AnswerRow as CitingAnswer } from '@factledger/projections';

/** A stored assembly trace as GET /traces/{id} gives it (the API documents it as an open object); the stages the funnel reads. */
export interface Trace {
  id: string;
  createdAt: string;
  query: { message: string; cleaned: string; parts: string[] };
  asOf: { validAt: string; knownAt: string };
  pool: {
    memoryId: string;
    text: string;
    neighbourOf?: unknown;
    scores: { cosineSimilarity: number | null; passageCosineSimilarity: number | null; bm25: number | null; stemCoverage: number | null; trigramWordSimilarity: number | null };
  }[];
  thresholds: Record<string, number>;
  relevant: { memoryId: string; why: string }[][];
  excluded: { memoryId: string; reason: string }[];
  merged: { memoryId: string; fused: number }[];
  diversity: { memoryId: string; fused: number; maxCosineToTaken: number | null }[];
  channels: { profile: string[]; fresh: string[]; detail: string[] };
  budget: { budgetTokens: number; usedTokens: number; tokenizer: string; cut: { memoryId: string; channel: string; reason: string }[] };
  survivors: { memoryId: string; channel: string }[];
}

/** POST /context's reply. */
export type { RecallResult as Recalled } from '@factledger/recall';
