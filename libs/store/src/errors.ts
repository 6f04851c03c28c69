/** Errors of the event store, typed so callers can retry or report them precisely. */
import { LedgerError } from '@factledger/domain';

/** Another writer changed the stream first; re-read and decide again. */
export class ExpectedVersionConflict extends LedgerError {
  readonly code = 'version_conflict';
  constructor(readonly streamId: string, readonly expected: string, readonly actual: number) {
    super(`stream ${streamId} is at version ${actual}, expected ${expected}; re-read it and decide again`);
  }
}
