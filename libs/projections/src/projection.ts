/** What a projection is to its runner: a name (its checkpoint), a way to apply events, a reset. */
import type { AppendFollowUp, Executor, RecordedEvent } from '@factledger/store';
import type { MemoryRow } from './fact-projection';
import type { FrameGuard, PlannedFrame } from './fact-rows';

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
  apply(trx: Executor, events: RecordedEvent[]): Promise<void>;
  /** Empties the projection's tables, for a rebuild from position 0. */
  reset(trx: Executor): Promise<void>;
  /**
   * Optional fast path for a rebuild from position 0 (see rebuild.ts): the runner hands it the
   * log page by page, and it hands back the rows of its tables as soon as they are final
   * (`lastOfStream` says which events end their stream in the log being rebuilt). Must leave
   * exactly what `apply` would have left.
   */
  rebuilder?(sink: RebuildSink, lastOfStream: (event: RecordedEvent) => boolean): ProjectionRebuild;
}

/** Where a rebuild's rows go: each in the column order the rebuild names for its table. */
export interface RebuildSink {
  row(table: string, values: readonly unknown[]): void;
}

export interface ProjectionRebuild {
  /** For each of the projection's tables, the columns its rows come in. */
  readonly columns: Readonly<Record<string, readonly string[]>>;
  /** Folds the next page of the log; rows that no later event can change may go out now. */
  add(events: readonly RecordedEvent[]): void;
  /** The log is done: every row not out yet goes out. */
  end(): void;
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
  /**
   * Once the append succeeded: for each frame given to `inline`, in order, what restatement's
   * look-up will find now (null for a look-up by first word); a guess the next append's guard checks.
   */
  framesAfter(positions: number[]): (MemoryRow[] | null)[];
}

/** A projection that can also apply an append's new events inside the append's transaction. */
export interface InlineProjection {
  /** `frames`: restatement plans whose guards the follow-up checks before it applies anything (FrameGuard). */
  inline(streams: PendingStream[], frames?: PlannedFrame[]): InlineFollowUp;
  /** Whether the follow-up's reply shows the projection fully caught up with the append. */
  settled(reply: unknown): boolean;
  /** When `error` is the follow-up refusing the append over its guards: each changed guard, with the memories the look-up finds now. */
  changedFrames(error: unknown): { guard: FrameGuard; rows: MemoryRow[] }[] | null;
}
