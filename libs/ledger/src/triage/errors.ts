/** Errors of population triage, typed like the ledger's. */
import { LedgerError } from '@factledger/domain';

/** The judge missed too many control samples: its verdicts on the population are not trusted. */
export class TriageControlsFailedError extends LedgerError {
  readonly code = 'triage_controls_failed';
  constructor(
    readonly missed: number,
    readonly total: number,
    readonly maxMissRate: number,
    examples: string[],
  ) {
    super(
      `the judge missed ${missed} of ${total} control samples (${((missed / total) * 100).toFixed(1)}%, at most ${(maxMissRate * 100).toFixed(1)}% allowed); ` +
        `nothing was judged or frozen. Check what the judge sees (labels leaking into the text?) and its prompt. Missed: ${examples.join(' | ')}`,
    );
  }
}

/** Memories changed since the verdicts were frozen; applying them now would act on a state nobody judged. */
export class TriageStaleError extends LedgerError {
  readonly code = 'triage_stale';
  constructor(
    readonly changed: number,
    examples: string[],
  ) {
    super(`${changed} memories changed since the verdicts were frozen (${examples.join('; ')}); judge again, or apply with --skip-changed to leave them out`);
  }
}

/** After the apply, the store does not show what the frozen file says it should. */
export class TriageCountMismatchError extends LedgerError {
  readonly code = 'triage_count_mismatch';
  constructor(
    readonly batch: string,
    detail: string,
  ) {
    super(`the store does not match the frozen verdicts after the apply (${detail}); roll it back with \`factledger triage rollback ${batch}\``);
  }
}
