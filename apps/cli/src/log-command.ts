/**
 * `factledger log verify`: checks the event log's hash chain (migrations/018). Exit 0 with the
 * head hash alone on the last line (keep it somewhere else: a later run that gives another head
 * for the same position means the log was rewritten), or exit 1 with the first bad position alone
 * on the last line.
 */
import { createLedger, type LedgerConfig } from '@factledger/ledger';
import { Command, InvalidArgumentError } from 'commander';

function pageArg(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError('must be a positive whole number');
  return Number(value);
}

export function logCommand(config: () => LedgerConfig): Command {
  const log = new Command('log').description('the event log itself');
  log
    .command('verify')
    .description("check the log's hash chain: exit 0 and the head hash, or exit 1 and the first bad position")
    .option('--page <n>', 'events read per page', pageArg, 5000)
    .action(async (o: { page: number }) => {
      const handle = await createLedger(config());
      try {
        const result = await handle.store.verify({ pageSize: o.page });
        if (result.ok) {
          console.log(`ok: ${result.events} events chained; head at position ${result.headPosition}`);
          console.log(result.head ?? '(empty log)');
        } else {
          console.log(`BROKEN at position ${result.position} (${result.problem}): ${result.message}; ${result.events} events before it verified`);
          console.log(String(result.position));
          process.exitCode = 1;
        }
      } finally {
        await handle.close();
      }
    });
  return log;
}
