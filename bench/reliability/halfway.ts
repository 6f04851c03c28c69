/**
 * Half-way cell: the long operations an operator starts from the CLI, SIGKILLed at random moments
 * while they run, on each log: PGlite in a data folder, native PostgreSQL, and KurrentDB (the
 * protocol server in this process, read models in PostgreSQL).
 * - `factledger rebuild facts`: after each kill the read models hold exactly what they held before
 *   (a rebuild is one transaction, or builds beside the live tables and swaps them in one), and a
 *   rebuild run to its end afterwards gives them back again.
 * - `factledger erase --all`, round after round, each of a tenant of its own (an erasure cannot be
 *   taken back to be killed again), killed once, then run to its end: after each kill the log's
 *   chain verifies and, once the read models caught up, the tenant's memories are either all there
 *   or all gone (an erasure is one transaction in the log); after the run to its end none is left.
 *   Not on KurrentDB, whose events cannot be rewritten (an erasure is refused there).
 * - `factledger triage apply` of a frozen verdicts file, then `factledger triage rollback` of its
 *   batch (a population of planted "milestones", judged by the offline rules), round after round,
 *   each killed once: after each kill the population is either as before or exactly as judged,
 *   and each run again to its end gives the judged state, then the state before.
 * Each operation is killed `kills` times: a run that ended before its kill does not count, and
 * another round follows, up to twice `kills` rounds.
 * Then the store checks of the crash cells over the other tenant's writes (checks.ts).
 * On PGlite one process at a time owns the data folder: this process opens it for each check
 * and closes it before the CLI runs.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLedger, type FrozenVerdicts, type LedgerHandle, loadConfig } from '@factledger/ledger';
import { createTestDatabase, startLocalKurrentDb } from '@factledger/testing';
import { sql } from 'kysely';
import { Rng } from '../stats';
import { milestonePopulation, TRIAGE_CONTROLS } from '../triage-population';
import { type AcknowledgedWrite, checkStore } from './checks';
import type { CrashLog } from './crash';
import { CLI } from './server-process';

/** Memories of the population the triage judges. */
const TRIAGE_MEMBERS = 1_040;
/** Memories of each tenant an erasure round erases. */
const ERASED_MEMBERS = 600;

/** What a triage batch changed in the population, as the read models show it. */
interface Triaged {
  quarantined: number;
  retyped: number;
}

export interface HalfwayCellResult {
  cell: string;
  backend: CrashLog;
  kills: number;
  rebuildKills: number;
  erasureKills: number;
  memories: number;
  erased: number;
  applyKills: number;
  rollbackKills: number;
  /** Memories the triage's batch changed (quarantined or retyped). */
  triaged: number;
  events: number;
  ms: number;
  violations: string[];
}

/** Work on the store from this process (on PGlite: opened for it, closed after it). */
type WithLedger = <T>(work: (handle: LedgerHandle) => Promise<T>) => Promise<T>;

/** One CLI run on `env`: killed `killAfterMs` after its start (null: run to its end); how long it ran and how it ended. */
async function runCli(args: string[], env: Record<string, string>, killAfterMs: number | null): Promise<{ ms: number; code: number | null; killed: boolean; output: string }> {
  const started = Date.now();
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += String(d)));
  child.stderr!.on('data', (d: Buffer) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let killed = false;
  const timer = killAfterMs === null ? null : setTimeout(() => ((killed = child.kill('SIGKILL')), undefined), killAfterMs);
  const code = await exited;
  if (timer) clearTimeout(timer);
  return { ms: Date.now() - started, code, killed: killed && code === null, output };
}

/**
 * `args` run once, SIGKILLed at a random moment in the `spreadMs` after the CLI's start-up
 * (`idleMs`, measured by a run with nothing to do), while it works; a run may also end first.
 * After it the log's chain must verify.
 */
async function killedOnce(
  args: string[],
  env: Record<string, string>,
  at: { idleMs: number; spreadMs: number; rng: Rng },
  withLedger: WithLedger,
  violations: string[],
): Promise<{ ms: number; killed: boolean }> {
  const run = await runCli(args, env, Math.round(at.idleMs * (0.8 + 0.4 * at.rng.next()) + at.spreadMs * at.rng.next()));
  const verified = await withLedger((handle) => handle.store.verify());
  if (!verified.ok) violations.push(`after \`factledger ${args.join(' ')}\` ${run.killed ? 'killed' : 'ended'} at ${run.ms} ms the chain breaks at ${verified.position}: ${verified.message}`);
  return run;
}

export async function halfwayCell(backend: CrashLog, kills: number, seed = 11): Promise<HalfwayCellResult> {
  const started = Date.now();
  const rng = new Rng(seed);
  const violations: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'fl-halfway-'));
  const database = backend === 'pglite' ? null : await createTestDatabase('postgres');
  const kurrent = backend === 'kurrentdb' ? await startLocalKurrentDb() : null;
  const env: Record<string, string> = database ? { DATABASE_URL: database.url! } : { FACTLEDGER_DATA_DIR: join(dir, 'data') };
  if (kurrent) Object.assign(env, { FACTLEDGER_EVENT_STORE: 'kurrentdb', KURRENTDB_URL: kurrent.url });
  const open = (): Promise<LedgerHandle> => createLedger(loadConfig(env));
  // A native database is shared with the CLI; PGlite's folder is not.
  const shared = backend === 'pglite' ? null : await open();
  const withLedger: WithLedger = async (work) => {
    if (shared) return work(shared);
    const handle = await open();
    try {
      return await work(handle);
    } finally {
      await handle.close();
    }
  };
  const acknowledged: AcknowledgedWrite[] = [];
  let rebuildKills = 0;
  let erasureKills = 0;
  let memories = 0;
  let erased = 0;
  let applyKills = 0;
  let rollbackKills = 0;
  let triaged = 0;
  try {
    // The tenant kept whole: its writes must read back at the end.
    await withLedger(async (handle) => {
      for (let b = 0; b < 10; b++) {
        const ops = Array.from({ length: 200 }, (_, i) => ({ assert: { subject: `service ${b}-${i % 50}`, relation: i < 50 ? 'port' : i < 100 ? 'owner' : 'region', value: `kept-${b}-${i}` } }));
        const commandId = `halfway:kept:${b}`;
        const written = await handle.ledger.writeMany('kept', ops, { commandId });
        memories += written.results.length;
        written.results.forEach((r, i) => {
          // Only the last value of each key is current; earlier ones were superseded in the same batch.
          if (i >= 150) acknowledged.push({ kind: 'memory', commandId, tenant: 'kept', memoryId: r.memoryId, value: ops[i]!.assert.value, outcome: r.outcome });
        });
      }
    });
    const rowsNow = (): Promise<string> => withLedger(async (handle) => JSON.stringify(await handle.runner.rows('facts')));
    const before = await rowsNow();

    // The rebuild, run once to its end for its duration, then killed at random moments in it.
    const whole = await runCli(['rebuild', 'facts'], env, null);
    if (whole.code !== 0) violations.push(`factledger rebuild facts failed: ${whole.output.slice(-500)}`);
    if ((await rowsNow()) !== before) violations.push('a rebuild run to its end changed the read models');
    for (let k = 0; rebuildKills < kills && k < 2 * kills; k++) {
      const run = await runCli(['rebuild', 'facts'], env, Math.round(whole.ms * (0.3 + 0.65 * rng.next())));
      if (!run.killed) continue;
      rebuildKills++;
      if ((await rowsNow()) !== before) violations.push(`after a rebuild killed at ${run.ms} ms, the read models differ from before it`);
    }
    const again = await runCli(['rebuild', 'facts'], env, null);
    if (again.code !== 0) violations.push(`a rebuild after the killed ones failed: ${again.output.slice(-500)}`);
    if ((await rowsNow()) !== before) violations.push('a rebuild after the killed ones changed the read models');

    // The erasures: a tenant of their own each round, written, erased under a kill, then erased to
    // the end. Counted once the read models have applied what the log holds: an erasure is one
    // transaction in the log, and the read models follow its MemoryErased events page by page.
    if (backend !== 'kurrentdb') {
      const plant = (tenant: string): Promise<void> =>
        withLedger(async (handle) => {
          for (let b = 0; b < ERASED_MEMBERS; b += 200) {
            await handle.ledger.writeMany(
              tenant,
              Array.from({ length: 200 }, (_, i) => ({ assert: { subject: `host ${b + i}`, relation: 'address', value: `${tenant}-${b + i}` } })),
            );
          }
          memories += ERASED_MEMBERS;
        });
      const left = (tenant: string): Promise<number> =>
        withLedger(async (handle) => {
          await handle.runner.catchUp();
          return Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_memories WHERE tenant = ${tenant}`.execute(handle.database.db)).rows[0]!.n);
        });
      const erase = async (tenant: string): Promise<number> => {
        const run = await runCli(['erase', '--tenant', tenant, '--all'], env, null);
        if (run.code !== 0) violations.push(`the erasure of ${tenant} run to its end failed: ${run.output.slice(-500)}`);
        const n = await left(tenant);
        if (n !== 0) violations.push(`the erasure of ${tenant} run to its end left ${n} of its memories`);
        erased += ERASED_MEMBERS;
        return run.ms;
      };
      // How long the CLI takes to start (erasing a tenant with nothing), and a whole erasure.
      const idle = await runCli(['erase', '--tenant', 'nobody', '--all'], env, null);
      await plant('leaving-whole');
      const wholeMs = await erase('leaving-whole');
      for (let k = 0; erasureKills < kills && k < 2 * kills; k++) {
        const tenant = `leaving-${k}`;
        await plant(tenant);
        const run = await killedOnce(['erase', '--tenant', tenant, '--all'], env, { idleMs: idle.ms, spreadMs: Math.max(200, 0.9 * (wholeMs - idle.ms)), rng }, withLedger, violations);
        const n = await left(tenant);
        if (n !== 0 && n !== ERASED_MEMBERS) violations.push(`after an erasure killed at ${run.ms} ms, ${n} of the tenant's ${ERASED_MEMBERS} memories are left: half an erasure`);
        if (run.killed) erasureKills++;
        await erase(tenant);
      }
    }

    // The triage of a population (R19): judged and frozen by the CLI, then its apply and its
    // rollback killed at random moments. Each writes its changes as one append, so after each kill
    // the population is either as judged or as before, never some of it.
    const population = milestonePopulation(TRIAGE_MEMBERS);
    await withLedger(async (handle) => {
      for (let i = 0; i < population.length; i += 260) {
        await handle.ledger.writeMany(
          'triaged',
          population.slice(i, i + 260).map((m) => ({ assert: { text: m.text, type: 'milestone', speaker: 'user' } })),
        );
      }
    });
    memories += population.length;
    writeFileSync(join(dir, 'controls.json'), JSON.stringify(TRIAGE_CONTROLS));
    const verdictsFile = join(dir, 'verdicts.json');
    const judged = await runCli(['triage', 'judge', '--tenant', 'triaged', '--type', 'milestone', '--controls', join(dir, 'controls.json'), '--out', verdictsFile], env, null);
    if (judged.code !== 0) throw new Error(`factledger triage judge failed: ${judged.output.slice(-500)}`);
    const frozen = JSON.parse(readFileSync(verdictsFile, 'utf8')) as FrozenVerdicts;
    const judgedAs: Triaged = { quarantined: frozen.counts.quarantine, retyped: Object.values(frozen.counts.retype).reduce((a, b) => a + b, 0) };
    if (judgedAs.quarantined === 0 || judgedAs.retyped === 0) throw new Error(`the judge changed too little to test: ${JSON.stringify(frozen.counts)}`);
    const triagedNow = (): Promise<Triaged> =>
      withLedger(async (handle) => {
        await handle.runner.catchUp();
        const { rows } = await sql<Triaged>`
          SELECT count(*) FILTER (WHERE status = 'quarantined')::int AS quarantined, count(*) FILTER (WHERE type <> original_type)::int AS retyped
          FROM fl_memories WHERE tenant = 'triaged'`.execute(handle.database.db);
        return rows[0]!;
      });
    const untouched: Triaged = { quarantined: 0, retyped: 0 };
    const same = (a: Triaged, b: Triaged): boolean => a.quarantined === b.quarantined && a.retyped === b.retyped;
    const dryRun = await runCli(['triage', 'apply', verdictsFile, '--dry-run'], env, null);
    // A rollback of a batch nobody applied ends right after the CLI's start-up.
    const noBatch = await runCli(['triage', 'rollback', 'no-such-batch', '--tenant', 'triaged'], env, null);
    const halfBatch = (what: string, run: { ms: number; killed: boolean }, now: Triaged): void => {
      if (!same(now, untouched) && !same(now, judgedAs))
        violations.push(
          `after a triage ${what} ${run.killed ? 'killed' : 'ended'} at ${run.ms} ms the population shows ${JSON.stringify(now)}, neither before nor as judged (${JSON.stringify(judgedAs)}): half a batch`,
        );
    };
    // Each round applies the file under a batch label of its own (after a rollback its memories
    // are as they were frozen again), killed once, then run to its end; then rolls it back the same way.
    for (let k = 0; (applyKills < kills || rollbackKills < kills) && k < 2 * kills; k++) {
      const batch = `halfway-triage-${k}`;
      const apply = ['triage', 'apply', verdictsFile, '--batch', batch];
      const applyRun = await killedOnce(apply, env, { idleMs: dryRun.ms, spreadMs: 1500, rng }, withLedger, violations);
      halfBatch('apply', applyRun, await triagedNow());
      if (applyRun.killed) applyKills++;
      // Run to its end: a batch that landed before the kill is answered as already applied.
      const applied = await runCli(apply, env, null);
      if (applied.code !== 0) violations.push(`a triage apply run again after ${applyRun.killed ? 'a kill' : 'its end'} failed: ${applied.output.slice(-500)}`);
      const afterApply = await triagedNow();
      if (!same(afterApply, judgedAs)) violations.push(`a triage apply run to its end left ${JSON.stringify(afterApply)}, not as judged`);
      const rollback = ['triage', 'rollback', batch, '--tenant', 'triaged'];
      const rollbackRun = await killedOnce(rollback, env, { idleMs: noBatch.ms, spreadMs: 600, rng }, withLedger, violations);
      halfBatch('rollback', rollbackRun, await triagedNow());
      if (rollbackRun.killed) rollbackKills++;
      const rolled = await runCli(rollback, env, null);
      if (rolled.code !== 0) violations.push(`a triage rollback run again after ${rollbackRun.killed ? 'a kill' : 'its end'} failed: ${rolled.output.slice(-500)}`);
      const afterRollback = await triagedNow();
      if (!same(afterRollback, untouched)) violations.push(`a triage rollback run to its end left ${JSON.stringify(afterRollback)}`);
    }
    triaged = judgedAs.quarantined + judgedAs.retyped;

    const findings = await withLedger((handle) => checkStore(handle, acknowledged));
    violations.push(...findings.violations);
    return {
      cell: 'rebuild, erasure, triage apply and rollback killed half-way',
      backend,
      kills: rebuildKills + erasureKills + applyKills + rollbackKills,
      rebuildKills,
      erasureKills,
      applyKills,
      rollbackKills,
      memories,
      erased,
      triaged,
      events: findings.events,
      ms: Date.now() - started,
      violations,
    };
  } finally {
    await shared?.close();
    await database?.close();
    await kurrent?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
