/** What a projection is to its runner: a name (its checkpoint), a way to apply events, a reset. */
import type { RecordedEvent } from '@factledger/store';
import type { Kysely, Transaction } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ProjectionExecutor = Kysely<any> | Transaction<any>;

export interface Projection {
  readonly name: string;
  /** Applies events in log order; must be idempotent (a replayed event changes nothing). */
  apply(trx: ProjectionExecutor, events: RecordedEvent[]): Promise<void>;
  /** Empties the projection's tables, for a rebuild from position 0. */
  reset(trx: ProjectionExecutor): Promise<void>;
  /**
   * Optional fast path for a rebuild: the whole log at once, onto tables just reset. Must leave
   * exactly what `apply` would have left.
   */
  applyAll?(trx: ProjectionExecutor, events: RecordedEvent[]): Promise<void>;
}
