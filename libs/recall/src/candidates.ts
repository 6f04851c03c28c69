/**
 * What the candidate pool finds, as shapes and pure helpers: a version as shown, a find with its
 * scores, one statement's finds with the state of the facts it read, and the helpers that read
 * them (one state or not, the best find per memory, a find's vector, a text as a read shows it).
 * The statements that find them are candidate-pool.ts's.
 */
import { type HiddenPart, hiddenAt, withoutParts } from '@factledger/domain';
import { fromVectorBinary } from '@factledger/embeddings';
import type { AsOf, CheckpointLagRow } from '@factledger/projections';

/** A version as shown: what it says, who said it, where from, when it was said, and from when it holds. */
export interface Shown {
  memory_id: string;
  text: string;
  type: string;
  speaker: string;
  source: string | null;
  said_at: Date;
  valid_from: Date;
  /** The memories whose statements replaced the parts of this text left out at the read's (validAt, knownAt); empty when none. */
  replaced_by: string[];
  /** Memories whose change to this text was rolled back by then: never made again for a question (recall.ts). */
  kept_apart: string[];
}

/**
 * A version a shown memory replaced (or one that version replaced, and so on back), for a question
 * over time: its text whole, as it was on record, and when it held.
 */
export interface Replaced extends Shown {
  /** End of its valid period; null when only a statement of it was replaced (the rest still holds). */
  valid_to: Date | null;
  /** The memory that replaced it: the shown one, or the one a step nearer it. */
  successor: string;
  /** Steps back from the shown memory (1: a version the shown one replaced itself). */
  step: number;
  /**
   * How the replacement is on record: `superseded`, its retirement names its successor (a new
   * value of its key, a restatement); `retired`, retired with no successor named, by the same
   * speaker, from the successor's start, in the write that recorded the successor, sharing a word
   * (an English stem) with it (resolution in the message path names the successor only in the
   * message's record, which recall does not read); `parts`, a statement inside it was
   * replaced by the successor (the rest of it still holds).
   */
  link: 'superseded' | 'retired' | 'parts';
}

/**
 * A candidate as its statement found it: the version as shown, its scores against one sub-query,
 * whether the index holds its embedding (and the embedding itself, for diversity), whether it is
 * core (said by the standing statement, which finds every core version; the retrievers leave it
 * false), and, for a conversation turn found beside a lexical find, whose neighbour it is.
 */
export interface Found extends Shown {
  embedded: boolean;
  /** The embedding in pgvector's binary form, base64, as it came (`vectorOf` reads it): only the few diversity compares are ever decoded. */
  embedding: string | null;
  cosine: number | null;
  /** Cosine similarity of the query to the nearest of the version's passages (its sentences, see migration 020); null when it has none. */
  passage_cosine: number | null;
  /** Okapi BM25 of the sub-query's stems (see the module's note); 0 when none matched. */
  bm25: number;
  /** Σ idf of the sub-query's stems this version holds. */
  matched_idf: number;
  /** Σ idf of the sub-query's stems its key holds (a fact's relation, the names of the slots it speaks of). */
  key_idf: number;
  trigram: number;
  core: boolean;
  /** 'prose' for a conversation turn or other text without a triple; null for rows indexed before migration 014. */
  kind: string | null;
  /** Set on a turn found as the one said just before or after a lexical find. */
  neighbour_of: { memoryId: string; side: 'before' | 'after' } | null;
}

/** A stem of the sub-query with its rarity in the tenant's index. */
export interface QueryStem {
  stem: string;
  docs: number;
  idf: number;
}

/** What one statement found, and the state of the facts it read (null when it found nothing). */
export interface Finds {
  rows: Found[];
  state: string | null;
  /** The index's lag, from the statement asked for it (see find's `withLag`). */
  lag: CheckpointLagRow | null;
  /** The sub-query's stems as that statement weighed them (null when it found nothing). */
  stems: QueryStem[] | null;
}

/** How the lexical retriever weighs and bounds its work. */
export interface LexicalOptions {
  /** BM25's term-frequency saturation (here: how much a longer memory is discounted, with b). */
  k1: number;
  /** BM25's length normalisation, 0 (none) to 1 (full). */
  b: number;
  /** Most versions a lexical search scores before keeping its best (the rarer stems' hits). */
  scan: number;
  /** How many of the best BM25 finds are kept. */
  keep: number;
  /** How many of the best lexical finds are read with their neighbouring turns. */
  neighbourOf: number;
  /** Two turns said further apart than this are not neighbours. */
  neighbourGapMs: number;
}

export const DEFAULT_LEXICAL: LexicalOptions = { k1: 1.2, b: 0.75, scan: 400, keep: 20, neighbourOf: 20, neighbourGapMs: 3_600_000 };

/**
 * The distinctive words a trigram search looks for: the first eight. Each word is a condition of
 * the statement's text, and each text is prepared once per search connection (Database.search),
 * so the count must be bounded; a memory alike in eight distinctive words is singled out anyway.
 */
export const trigramWords = (distinctive: readonly string[]): string[] => distinctive.slice(0, 8);

/**
 * Like Promise.all, but a failure is thrown only once every statement has finished: a statement
 * left running after its call failed would still hold the connection (on PGlite, the only one)
 * when the caller moves on, or closes the database under it.
 */
export async function settled<T extends readonly unknown[]>(work: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const results = await Promise.allSettled(work);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/** True when every statement that found something read the same state of the facts. */
export function oneState(finds: readonly Finds[]): boolean {
  const states = finds.filter((f) => f.rows.length > 0).map((f) => f.state);
  return states.every((s) => s !== null && s === states[0]);
}

/**
 * Each version once, with the best of each score it was found with (copies: the finds stay as
 * found). A turn found both on its own and as a neighbour keeps the first neighbour relation seen.
 */
export function byBest(found: Iterable<Found>): Map<string, Found> {
  const out = new Map<string, Found>();
  for (const f of found) {
    const seen = out.get(f.memory_id);
    if (!seen) out.set(f.memory_id, { ...f });
    else {
      seen.cosine = f.cosine === null ? seen.cosine : Math.max(seen.cosine ?? -1, f.cosine);
      seen.passage_cosine = f.passage_cosine === null ? seen.passage_cosine : Math.max(seen.passage_cosine ?? -1, f.passage_cosine);
      seen.bm25 = Math.max(seen.bm25, f.bm25);
      seen.matched_idf = Math.max(seen.matched_idf, f.matched_idf);
      seen.key_idf = Math.max(seen.key_idf, f.key_idf);
      seen.trigram = Math.max(seen.trigram, f.trigram);
      seen.embedded ||= f.embedded;
      seen.embedding ??= f.embedding;
      seen.core ||= f.core;
      seen.neighbour_of ??= f.neighbour_of;
    }
  }
  return out;
}

/** A find's embedding as a vector, or null when the index has none yet. */
export function vectorOf(found: Pick<Found, 'embedding'>): Float32Array | null {
  return found.embedding ? fromVectorBinary(Buffer.from(found.embedding, 'base64')) : null;
}

/**
 * A version's text as a read at `at` shows it: without the statements inside it that a newer
 * memory had replaced by then (see @factledger/domain turn-parts.ts). The text on record is whole.
 */
export function shownText(text: string, hidden: readonly HiddenPart[] | null | undefined, at: AsOf): Pick<Shown, 'text' | 'replaced_by' | 'kept_apart'> {
  if (!hidden?.length) return { text, replaced_by: [], kept_apart: [] };
  const parts = hiddenAt(hidden, at.validAt.getTime(), at.knownAt.getTime());
  const undone = hidden.filter((p) => p.undoneAt !== null && p.undoneAt <= at.knownAt.getTime());
  return { text: withoutParts(text, parts), replaced_by: [...new Set(parts.map((p) => p.by))], kept_apart: [...new Set(undone.map((p) => p.by))] };
}
