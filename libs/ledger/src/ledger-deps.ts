/** What a ledger is built on: the log, the read models and their runner, the clock, and the copies it keeps. */
import type { Clock } from '@factledger/domain';
import type { FactReader, InlineProjection, ProjectionRunner, ReplicaRouting } from '@factledger/projections';
import type { EventStore } from '@factledger/store';
import type { FrameCache } from './frame-cache';
import type { StreamCache } from './stream-cache';

export interface LedgerDeps {
  store: EventStore;
  runner: ProjectionRunner;
  /** Applies a command's events to the read models in the append's own transaction. */
  inline?: InlineProjection;
  reader: FactReader;
  clock: Clock;
  newId?: () => string;
  /** The copies of streams this process keeps (shared with erasure, which drops those it erases). */
  streams?: StreamCache;
  /** The copies of restatement's look-ups this process keeps (shared with erasure, likewise). */
  frames?: FrameCache;
  /** Whether a prose statement is aligned with the memories it may restate (default true; FACTLEDGER_RESTATEMENT=off). */
  restatement?: boolean;
  /** Where reads may be served from besides the primary: PostgreSQL standbys (FACTLEDGER_READ_URLS). */
  replicas?: ReplicaRouting;
}
