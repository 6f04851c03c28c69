/**
 * `factledger worker --only`: the names it accepts are the ledger's and recall's job lists
 * (namedJobs ties each list to its names), and anything else is refused before a database opens.
 */
import { LEDGER_JOBS, type LedgerConfig } from '@factledger/ledger';
import { RECALL_JOBS } from '@factledger/recall';
import { WORKER_JOBS, workerCommand } from './worker-command';

describe('factledger worker --only', () => {
  // Reading the configuration is the first thing the action does: a refused argument never gets there.
  const config = (): LedgerConfig => {
    throw new Error('the configuration was read');
  };
  const quiet = { writeErr: () => undefined, writeOut: () => undefined };

  it('offers the jobs of the ledger and of recall, no name twice', () => {
    expect(new Set(WORKER_JOBS)).toEqual(new Set([...LEDGER_JOBS, ...RECALL_JOBS]));
    expect(new Set(WORKER_JOBS).size).toBe(LEDGER_JOBS.length + RECALL_JOBS.length);
  });

  it.each([['bogus'], ['facts,bogus'], [',']])('refuses --only %s, naming the jobs it knows', async (only) => {
    const command = workerCommand(config).exitOverride().configureOutput(quiet);
    await expect(command.parseAsync(['--only', only], { from: 'user' })).rejects.toMatchObject({
      code: 'commander.invalidArgument',
      message: expect.stringContaining(`choose from ${WORKER_JOBS.join(', ')}`),
    });
  });

  it('accepts every job name, and only then reads the configuration', async () => {
    const command = workerCommand(config).exitOverride().configureOutput(quiet);
    await expect(command.parseAsync(['--only', WORKER_JOBS.join(',')], { from: 'user' })).rejects.toThrow('the configuration was read');
  });
});
