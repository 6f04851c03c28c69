/**
 * `npm run bench:failover`: worker fail-over, measured over 20 kills. Two `factledger worker`
 * processes share the answers projection through a lease (native PostgreSQL; this process runs no
 * projection, FACTLEDGER_WORKERS=external). Each round SIGKILLs the holder, appends one answer and
 * times from the kill to the moment the answers checkpoint covers that append: the first event the
 * next worker projects. Then a new standby starts. The bound comes from the lease (a session
 * advisory lock that goes with its holder's connection) and the standby's poll (50 ms here, as in
 * test/worker-failover.int.spec.ts). Results in bench/results/failover.json.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { ledgerOn } from '@factledger/ledger';
import { createTestDatabase } from '@factledger/testing';
import { sql } from 'kysely';
import { fmtMs, summarize } from './stats';

const KILLS = 20;
const POLL_MS = 50;
const log = (m: string) => process.stderr.write(`${m}\n`);

interface Worker {
  child: ChildProcess;
  output: string;
  exited: Promise<void>;
}

async function main(): Promise<void> {
  if (!process.env.FL_PG_ADMIN_URL) throw new Error('bench:failover needs native PostgreSQL: set FL_PG_ADMIN_URL (an admin connection string)');
  const database = await createTestDatabase('postgres');
  const handle = ledgerOn(database, { passive: true, waitTimeoutMs: 20_000 });
  const workers: Worker[] = [];
  const start = (): Worker => {
    const child = spawn(process.execPath, [join(__dirname, '..', 'apps', 'cli', 'src', 'main.js'), 'worker', '--only', 'answers'], {
      env: { ...process.env, DATABASE_URL: database.url!, FACTLEDGER_INDEX_INTERVAL_MS: String(POLL_MS), FACTLEDGER_MIGRATE_ON_START: 'false', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const worker: Worker = { child, output: '', exited: new Promise((resolve) => child.on('exit', () => resolve())) };
    child.stdout!.on('data', (d) => (worker.output += String(d)));
    child.stderr!.on('data', (d) => (worker.output += String(d)));
    workers.push(worker);
    return worker;
  };
  const until = async (what: () => boolean | Promise<boolean>, label: string): Promise<void> => {
    for (const t0 = Date.now(); !(await what());) {
      if (Date.now() - t0 > 60_000) throw new Error(`timed out waiting for ${label}:\n${workers.map((w) => w.output).join('\n---\n')}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  };
  const checkpoint = async (): Promise<number> => Number((await sql<{ p: string }>`SELECT prepare AS p FROM fl_checkpoints WHERE name = 'answers'`.execute(database.db)).rows[0]?.p ?? 0);
  try {
    const cited = await handle.ledger.assert('f', { subject: 'api', relation: 'port', value: '8000' });
    const record = (n: number) => handle.answers.record('f', { answerId: `a-${n}`, text: `Answer ${n}.`, cites: [cited.memoryId] });
    let holder = start();
    await until(() => holder.output.includes('holding answers'), 'the first worker to take the lease');
    let standby = start();
    await until(() => standby.output.includes('worker started'), 'the standby to start');
    const takeovers: number[] = [];
    for (let round = 0; round < KILLS; round++) {
      holder.child.kill('SIGKILL');
      const killedAt = process.hrtime.bigint();
      await holder.exited;
      const written = await record(round);
      await until(async () => (await checkpoint()) >= written.position, `round ${round}'s answer to be projected`);
      takeovers.push(Number(process.hrtime.bigint() - killedAt) / 1e6);
      if (!standby.output.includes('holding answers')) throw new Error(`round ${round}: the standby did not take the lease`);
      log(`kill ${round + 1}/${KILLS}: ${takeovers.at(-1)!.toFixed(1)} ms`);
      holder = standby;
      standby = start();
      await until(() => standby.output.includes('worker started'), 'a new standby to start');
    }
    const answers = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_answers WHERE tenant = 'f'`.execute(database.db)).rows[0]!.n);
    if (answers !== KILLS) throw new Error(`${answers} answers projected, ${KILLS} written: an event was skipped or applied twice`);
    if ((await checkpoint()) !== (await handle.store.head())) throw new Error('the checkpoint does not end at the last event');
    const summary = summarize(takeovers);
    const markdown = [
      '| measure | value |',
      '|---|---|',
      `| worker fail-over, SIGKILL of the lease holder → first event projected by the next worker, ${KILLS} kills, p50 / max | ${fmtMs(summary.p50)} / ${fmtMs(summary.max)} ms (standby polls every ${POLL_MS} ms) |`,
      `| answers projected across the kills | ${answers} of ${KILLS}, checkpoint at the log's head |`,
    ].join('\n');
    const result = { machine: { cpus: cpus().length, node: process.version }, kills: KILLS, pollMs: POLL_MS, takeoverMs: summary, samples: takeovers.map((t) => Math.round(t * 10) / 10), markdown };
    const out = join(__dirname, '..', '..', 'bench', 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'failover.json'), `${JSON.stringify(result, null, 1)}\n`);
    process.stdout.write(`${markdown}\nresults: bench/results/failover.json\n`);
  } finally {
    for (const w of workers) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await database.close();
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
