/**
 * Projections in separate workers (FACTLEDGER_WORKERS=external): two `factledger worker`
 * processes share the answers projection through a lease; the holder is killed with SIGKILL, again
 * and again, and the other takes over. A read with `minPosition` in this process (which applies no
 * projection itself) sees every write once a worker has applied it: nothing is skipped across a
 * hand-over, and the checkpoint ends exactly at the last event. Native PostgreSQL only (processes
 * share the database).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { type LedgerHandle, ledgerOn } from '@factledger/ledger';
import { createTestDatabase, type TestDatabase } from '@factledger/testing';
import { sql } from 'kysely';

const native = process.env.FL_PG_ADMIN_URL ? describe : describe.skip;

interface Worker {
  child: ChildProcess;
  output: string;
  exited: Promise<void>;
}

native('workers holding the projections through leases, killed and taken over', () => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  const workers: Worker[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    handle = ledgerOn(database, { passive: true, waitTimeoutMs: 20_000 });
  });
  afterAll(async () => {
    for (const w of workers) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await database.close();
  });

  function start(): Worker {
    const url = new URL(process.env.FL_PG_ADMIN_URL!);
    url.pathname = `/${database.name}`;
    const child = spawn(process.execPath, [join(__dirname, 'support', 'run-cli.js'), 'worker', '--only', 'answers'], {
      env: { ...process.env, DATABASE_URL: url.toString(), FACTLEDGER_INDEX_INTERVAL_MS: '50', FACTLEDGER_MIGRATE_ON_START: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const worker: Worker = { child, output: '', exited: new Promise((resolve) => child.on('exit', () => resolve())) };
    child.stdout!.on('data', (d) => (worker.output += String(d)));
    child.stderr!.on('data', (d) => (worker.output += String(d)));
    workers.push(worker);
    return worker;
  }
  async function until(what: () => boolean, label: string, ms = 60_000): Promise<void> {
    for (const started = Date.now(); !what();) {
      if (Date.now() - started > ms) throw new Error(`timed out waiting for ${label}; workers said:\n${workers.map((w) => w.output).join('\n---\n')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  const holding = (w: Worker) => w.output.includes('holding answers');

  it('hands the projection over within a bound, skipping nothing, each time its holder is killed', async () => {
    const cited = await handle.ledger.assert('w', { subject: 'api', relation: 'port', value: '8000' });
    const record = async (n: number) => handle.answers.record('w', { answerId: `a-${n}`, text: `Answer ${n}.`, cites: [cited.memoryId] });
    const first = start();
    await until(() => holding(first), 'the first worker to take the lease');
    let standby = start();
    await until(() => standby.output.includes('worker started'), 'the second worker to start');
    for (let n = 0; n < 20; n++) await record(n);
    // Read-your-writes across processes: this process waits for a worker's checkpoint.
    expect((await handle.answers.answer('w', { answerId: 'a-19', minPosition: await handle.store.head() })).text).toBe('Answer 19.');
    expect(holding(standby)).toBe(false);

    let holder = first;
    const takeovers: number[] = [];
    for (let round = 0; round < 3; round++) {
      holder.child.kill('SIGKILL');
      await holder.exited;
      const killedAt = Date.now();
      const written = await record(100 + round);
      const read = await handle.answers.answer('w', { answerId: `a-${100 + round}`, minPosition: written.position });
      takeovers.push(Date.now() - killedAt);
      expect(read.text).toBe(`Answer ${100 + round}.`);
      expect(holding(standby)).toBe(true);
      holder = standby;
      standby = start();
      await until(() => standby.output.includes('worker started'), 'a new standby to start');
    }
    const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_answers WHERE tenant = 'w'`.execute(database.db);
    expect(rows.rows[0]!.n).toBe(23);
    const checkpoint = await sql<{ p: string }>`SELECT prepare AS p FROM fl_checkpoints WHERE name = 'answers'`.execute(database.db);
    expect(Number(checkpoint.rows[0]!.p)).toBe(await handle.store.head());
    // The bound: the lease lapses with its holder's connection, and the standby polls every 50 ms.
    for (const ms of takeovers) expect(ms).toBeLessThan(10_000);
  }, 240_000);
});
