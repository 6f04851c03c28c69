/** Errors of recall, typed like the ledger's (the HTTP layer maps their codes). */
import { LedgerError } from '@factledger/domain';

export class UnknownTraceError extends LedgerError {
  readonly code = 'unknown_trace';
  constructor(readonly traceId: string) {
    super(`no context assembly trace ${traceId} in this tenant (it may be past its retention period)`);
  }
}
