import { LedgerError } from '@factledger/domain';

/** A read asked for a position the read model has not reached in time. */
export class ProjectionLagError extends LedgerError {
  readonly code = 'projection_lag';
  constructor(
    readonly projection: string,
    readonly minPosition: number,
    readonly behind: number,
    readonly waitedMs: number,
  ) {
    super(`read model '${projection}' has not reached position ${minPosition} after ${waitedMs} ms: ` + `${behind} event(s) at or before it are not applied yet; retry shortly`);
  }
}
