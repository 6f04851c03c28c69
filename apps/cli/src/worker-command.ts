/**
 * `factledger worker [--only jobs]`: runs the readers of the log in a process of its own, for
 * servers started with FACTLEDGER_WORKERS=external. Each job is held by one worker at a time
 * through a lease (LeasedWorker): start as many workers as you like, on as many machines; when
 * the holder of a job dies, another takes it over within FACTLEDGER_INDEX_INTERVAL_MS of the
 * lapse. Prints `holding <job>` / `lost <job>` as leases come and go; stops on SIGTERM or SIGINT.
 */
import { systemClock } from '@factledger/domain';
import { createLedger, LEDGER_JOBS, type LedgerConfig } from '@factledger/ledger';
import { LeasedWorker, type WorkerJob } from '@factledger/projections';
import { RECALL_JOBS, recallOn } from '@factledger/recall';
import { Command } from 'commander';
import { namesFrom } from './arguments';

/** Every job a worker can run: the ledger's and recall's, whose lists carry their names (namedJobs). */
export const WORKER_JOBS = [...LEDGER_JOBS, ...RECALL_JOBS] as const;

function jobsArg(value: string): string[] {
  return namesFrom(value, WORKER_JOBS, 'job');
}

export function workerCommand(config: () => LedgerConfig): Command {
  return new Command('worker')
    .description(`run the readers of the log (${WORKER_JOBS.join(', ')}), each held by one worker at a time`)
    .option('--only <jobs>', 'comma-separated jobs to run (default: all)', jobsArg)
    .action(async (o: { only?: string[] }) => {
      // The worker is where the readers run: its own ledger is never passive.
      const settings: LedgerConfig = { ...config(), workers: 'internal' };
      const handle = await createLedger(settings);
      const recall = recallOn(handle.database, handle.runner, systemClock, settings);
      // The same jobs a server with FACTLEDGER_WORKERS=internal runs in its own process.
      const all: WorkerJob[] = [...handle.jobs, ...recall.jobs];
      const worker = new LeasedWorker(
        handle.database,
        all.filter((j) => !o.only || o.only.includes(j.name)),
        {
          intervalMs: settings.indexIntervalMs,
          onError: (error) => console.error(`factledger worker: ${String(error)}`),
          onLease: (job, held) => console.log(`${held ? 'holding' : 'lost'} ${job}`),
        },
      );
      worker.start();
      console.log(`worker started (pid ${process.pid})`);
      await new Promise<void>((resolve) => {
        process.once('SIGTERM', () => resolve());
        process.once('SIGINT', () => resolve());
      });
      await worker.stop();
      await recall.stop();
      await handle.close();
    });
}
