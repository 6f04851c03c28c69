/** What a projection is to its runner: a name (its checkpoint), a way to apply events, a reset. */
import type { AppendFollowUp, RecordedEvent, Session } from '@factledger/store';
import type { Kysely, Transaction } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ProjectionExecutor = Kysely<any> | Transaction<any>;

export interface Projection {
  readonly name: string;
  /** The tables it owns (reset empties them; a rebuild refreshes their statistics afterwards). */
  readonly tables: string[];
  /**
   * Per table, the columns its reads filter, join and sort on. A rebuild refreshes the statistics
   * of these before it returns and leaves the others to autovacuum (which sees the whole table
   * changed); a table not listed is analyzed whole.
   */
  readonly statistics?: Readonly<Record<string, readonly string[]>>;
  /** Applies events in log order; must be idempotent (a replayed event changes nothing). */
  apply(trx: ProjectionExecutor, events: RecordedEvent[]): Promise<void>;
  /** Empties the projection's tables, for a rebuild from position 0. */
  reset(trx: ProjectionExecutor): Promise<void>;
  /**
   * Optional fast path for a rebuild from position 0, onto tables just reset: the runner hands
   * it the log page by page, then lets it write everything at once. Must leave exactly what
   * `apply` would have left.
   */
  rebuilder?(): ProjectionRebuild;
}

export interface ProjectionRebuild {
  /** Folds the next page of the log (in memory; nothing is written yet). */
  add(events: readonly RecordedEvent[]): void;
  /** Writes what the pages left, in the rebuild's transaction, bulk-loading rows with `copyIn`. */
  finish(trx: ProjectionExecutor, copyIn: Session['copyIn']): Promise<void>;
}

/** One stream of an append, as an inline projection sees it. */
export interface PendingStream {
  /** Every event already in the stream. */
  stream: RecordedEvent[];
  /** The new ones, their positions stood in for by -1, -2, … counted over the whole append. */
  pending: RecordedEvent[];
  /**
   * The projection's own rows for `stream`, as `rowsAfter` handed them out after the previous
   * append (opaque to the caller); when given, `stream` is not folded again.
   */
  rows?: unknown;
}

export interface InlineFollowUp {
  /** What to pass to the append; null when there is nothing to apply. */
  followUp: AppendFollowUp | null;
  /** Once the append succeeded: each stream's rows after it (same order as given), with real positions. */
  rowsAfter(positions: number[]): unknown[];
}

/** A projection that can also apply an append's new events inside the append's transaction. */
export interface InlineProjection {
  inline(streams: PendingStream[]): InlineFollowUp;
  /** Whether the follow-up's reply shows the projection fully caught up with the append. */
  settled(reply: unknown): boolean;
}
