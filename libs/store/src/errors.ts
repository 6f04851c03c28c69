/** Errors of the event store, typed so callers can retry or report them precisely. */
import { LedgerError } from '@factledger/domain';
import type { RecordedEvent } from './event-store.port';

/**
 * Another writer changed the stream first; re-read and decide again. `current`, when the store
 * could give it with the refusal, is the stream as it stands: no need to read it back.
 */
export class ExpectedVersionConflict extends LedgerError {
  readonly code = 'version_conflict';
  constructor(
    readonly streamId: string,
    readonly expected: string,
    readonly actual: number,
    readonly current?: { version: number; events: RecordedEvent[] },
  ) {
    super(`stream ${streamId} is at version ${actual}, expected ${expected}; re-read it and decide again`);
  }
}

/** The log's store cannot do what was asked (e.g. rewrite an event in place on KurrentDB). Nothing was changed. */
export class StoreCapabilityError extends LedgerError {
  readonly code = 'not_supported_by_store';
  constructor(
    readonly capability: string,
    readonly store: string,
  ) {
    super(`${store} cannot ${capability}; this needs the PostgreSQL event store`);
  }
}

/**
 * The append's follow-up refused it (it raised SQLSTATE FL412): nothing was written. `detail` is
 * the follow-up's reason as it gave it (JSON), for the writer that made the follow-up to read and
 * decide again on. To anyone else it is a version conflict: what the write was decided on changed.
 */
export class FollowUpRefused extends LedgerError {
  readonly code = 'version_conflict';
  constructor(readonly detail: unknown) {
    super('what this write was decided on changed before it landed; decide again');
  }
}

/** The SQLSTATE a follow-up raises to refuse an append (see FollowUpRefused). */
export const FOLLOW_UP_REFUSED = 'FL412';
