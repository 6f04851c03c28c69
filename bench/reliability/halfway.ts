/**
 * Half-way cell: the long operations an operator starts from the CLI, SIGKILLed at random moments
 * while they run, on native PostgreSQL.
 * - `factledger rebuild facts`: after each kill the read models hold exactly what they held before
 *   (a rebuild is one transaction, or builds beside the live tables and swaps them in one), and a
 *   rebuild run to its end afterwards gives them back again.
 * - `factledger erase --all` of a tenant of many memories: after each kill the log's chain
 *   verifies and, once the read models caught up, the tenant's memories are either all there or
 *   all gone (an erasure is one transaction in the log); the erasure run to its end afterwards leaves none of them, and the chain holds.
 * - `factledger triage apply` of a frozen verdicts file, then `factledger triage rollback` of its
 *   batch (a population of planted "milestones", judged by the offline rules), round after round,
 *   each killed once: after each kill the population is either as before or exactly as judged,
 *   and each run again to its end gives the judged state, then the state before.
 * Then the store checks of the crash cells over the other tenant's writes (checks.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLedger, type FrozenVerdicts, type LedgerHandle, loadConfig } from '@factledger/ledger';
import { createTestDatabase } from '@factledger/store';
import { sql } from 'kysely';
import { Rng } from '../stats';
import { milestonePopulation, TRIAGE_CONTROLS } from '../triage-population';
import { type AcknowledgedWrite, checkStore } from './checks';
import { CLI } from './server-process';

/** Memories of the population the triage judges. */
const TRIAGE_MEMBERS = 1_040;

/** What a triage batch changed in the population, as the read models show it. */
interface Triaged {
  quarantined: number;
  retyped: number;
}

export interface HalfwayCellResult {
  cell: string;
  backend: string;
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
  handle: LedgerHandle,
  violations: string[],
): Promise<{ ms: number; killed: boolean }> {
  const run = await runCli(args, env, Math.round(at.idleMs * (0.8 + 0.4 * at.rng.next()) + at.spreadMs * at.rng.next()));
  const verified = await handle.store.verify();
  if (!verified.ok) violations.push(`after \`factledger ${args.join(' ')}\` ${run.killed ? 'killed' : 'ended'} at ${run.ms} ms the chain breaks at ${verified.position}: ${verified.message}`);
  return run;
}

export async function halfwayCell(kills: number, seed = 11): Promise<HalfwayCellResult> {
  const started = Date.now();
  const rng = new Rng(seed);
  const violations: string[] = [];
  const database = await createTestDatabase('postgres');
  const env = { DATABASE_URL: database.url! };
  const handle = await createLedger(loadConfig(env));
  const acknowledged: AcknowledgedWrite[] = [];
  let rebuildKills = 0;
  let erasureKills = 0;
  let memories = 0;
  let erased = 0;
  let applyKills = 0;
  let rollbackKills = 0;
  let triaged = 0;
  const dir = mkdtempSync(join(tmpdir(), 'fl-halfway-'));
  try {
    // Two tenants: one kept (its writes must read back at the end), one to erase whole.
    for (const [tenant, batches] of [['kept', 10], ['leaving', 10]] as const) {
      for (let b = 0; b < batches; b++) {
        const ops = Array.from({ length: 200 }, (_, i) => ({ assert: { subject: `service ${b}-${i % 50}`, relation: i < 50 ? 'port' : i < 100 ? 'owner' : 'region', value: `${tenant}-${b}-${i}` } }));
        const commandId = `halfway:${tenant}:${b}`;
        const written = await handle.ledger.writeMany(tenant, ops, { commandId });
        memories += written.results.length;
        if (tenant === 'kept') {
          written.results.forEach((r, i) => {
            // Only the last value of each key is current; earlier ones were superseded in the same batch.
            if (i >= 150) acknowledged.push({ kind: 'memory', commandId, tenant, memoryId: r.memoryId, value: ops[i]!.assert.value, outcome: r.outcome });
          });
        }
      }
    }
    const rowsNow = async (): Promise<string> => JSON.stringify(await handle.runner.rows('facts'));
    const before = await rowsNow();

    // The rebuild, run once to its end for its duration, then killed at random moments in it.
    const whole = await runCli(['rebuild', 'facts'], env, null);
    if (whole.code !== 0) violations.push(`factledger rebuild facts failed: ${whole.output.slice(-500)}`);
    if ((await rowsNow()) !== before) violations.push('a rebuild run to its end changed the read models');
    for (let k = 0; k < kills; k++) {
      const run = await runCli(['rebuild', 'facts'], env, Math.round(whole.ms * (0.3 + 0.65 * rng.next())));
      if (!run.killed) continue;
      rebuildKills++;
      if ((await rowsNow()) !== before) violations.push(`after a rebuild killed at ${run.ms} ms, the read models differ from before it`);
    }
    const again = await runCli(['rebuild', 'facts'], env, null);
    if (again.code !== 0) violations.push(`a rebuild after the killed ones failed: ${again.output.slice(-500)}`);
    if ((await rowsNow()) !== before) violations.push('a rebuild after the killed ones changed the read models');

    // The erasure: how long the CLI takes to start (erasing a tenant with nothing), then killed
    // at random moments after that, while it erases.
    // Counted once the read models have applied what the log holds: an erasure is one transaction
    // in the log, and the read models follow its MemoryErased events page by page, like any change.
    const leaving = async (): Promise<number> => {
      await handle.runner.catchUp();
      return Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_memories WHERE tenant = 'leaving'`.execute(handle.database.db)).rows[0]!.n);
    };
    const all = await leaving();
    const idle = await runCli(['erase', '--tenant', 'nobody', '--all'], env, null);
    for (let k = 0; k < kills; k++) {
      const run = await killedOnce(['erase', '--tenant', 'leaving', '--all'], env, { idleMs: idle.ms, spreadMs: 2500, rng }, handle, violations);
      const left = await leaving();
      if (left !== 0 && left !== all) violations.push(`after an erasure killed at ${run.ms} ms, ${left} of the tenant's ${all} memories are left: half an erasure`);
      if (!run.killed) break;
      erasureKills++;
    }
    const finished = await runCli(['erase', '--tenant', 'leaving', '--all'], env, null);
    if (finished.code !== 0) violations.push(`the erasure after the killed ones failed: ${finished.output.slice(-500)}`);
    const left = await leaving();
    if (left !== 0) violations.push(`the erasure run to its end left ${left} memories of the tenant`);
    erased = all;

    // The triage of a population (R19): judged and frozen by the CLI, then its apply and its
    // rollback killed at random moments. Each writes its changes as one append, so after each kill
    // the population is either as judged or as before, never some of it.
    const population = milestonePopulation(TRIAGE_MEMBERS);
    for (let i = 0; i < population.length; i += 260) {
      await handle.ledger.writeMany('triaged', population.slice(i, i + 260).map((m) => ({ assert: { text: m.text, type: 'milestone', speaker: 'user' } })));
    }
    memories += population.length;
    writeFileSync(join(dir, 'controls.json'), JSON.stringify(TRIAGE_CONTROLS));
    const verdictsFile = join(dir, 'verdicts.json');
    const judged = await runCli(['triage', 'judge', '--tenant', 'triaged', '--type', 'milestone', '--controls', join(dir, 'controls.json'), '--out', verdictsFile], env, null);
    if (judged.code !== 0) throw new Error(`factledger triage judge failed: ${judged.output.slice(-500)}`);
    const frozen = JSON.parse(readFileSync(verdictsFile, 'utf8')) as FrozenVerdicts;
    const judgedAs: Triaged = { quarantined: frozen.counts.quarantine, retyped: Object.values(frozen.counts.retype).reduce((a, b) => a + b, 0) };
    if (judgedAs.quarantined === 0 || judgedAs.retyped === 0) throw new Error(`the judge changed too little to test: ${JSON.stringify(frozen.counts)}`);
    const triagedNow = async (): Promise<Triaged> => {
      await handle.runner.catchUp();
      const { rows } = await sql<Triaged>`
        SELECT count(*) FILTER (WHERE status = 'quarantined')::int AS quarantined, count(*) FILTER (WHERE type <> original_type)::int AS retyped
        FROM fl_memories WHERE tenant = 'triaged'`.execute(handle.database.db);
      return rows[0]!;
    };
    const untouched: Triaged = { quarantined: 0, retyped: 0 };
    const same = (a: Triaged, b: Triaged): boolean => a.quarantined === b.quarantined && a.retyped === b.retyped;
    const dryRun = await runCli(['triage', 'apply', verdictsFile, '--dry-run'], env, null);
    // A rollback of a batch nobody applied ends right after the CLI's start-up.
    const noBatch = await runCli(['triage', 'rollback', 'no-such-batch', '--tenant', 'triaged'], env, null);
    const halfBatch = (what: string, run: { ms: number; killed: boolean }, now: Triaged): void => {
      if (!same(now, untouched) && !same(now, judgedAs)) violations.push(`after a triage ${what} ${run.killed ? 'killed' : 'ended'} at ${run.ms} ms the population shows ${JSON.stringify(now)}, neither before nor as judged (${JSON.stringify(judgedAs)}): half a batch`);
    };
    // Each round applies the file under a batch label of its own (after a rollback its memories
    // are as they were frozen again), killed once, then run to its end; then rolls it back the same way.
    for (let k = 0; k < kills; k++) {
      const batch = `halfway-triage-${k}`;
      const apply = ['triage', 'apply', verdictsFile, '--batch', batch];
      const applyRun = await killedOnce(apply, env, { idleMs: dryRun.ms, spreadMs: 1500, rng }, handle, violations);
      halfBatch('apply', applyRun, await triagedNow());
      if (applyRun.killed) applyKills++;
      // Run to its end: a batch that landed before the kill is answered as already applied.
      const applied = await runCli(apply, env, null);
      if (applied.code !== 0) violations.push(`a triage apply run again after ${applyRun.killed ? 'a kill' : 'its end'} failed: ${applied.output.slice(-500)}`);
      const afterApply = await triagedNow();
      if (!same(afterApply, judgedAs)) violations.push(`a triage apply run to its end left ${JSON.stringify(afterApply)}, not as judged`);
      const rollback = ['triage', 'rollback', batch, '--tenant', 'triaged'];
      const rollbackRun = await killedOnce(rollback, env, { idleMs: noBatch.ms, spreadMs: 600, rng }, handle, violations);
      halfBatch('rollback', rollbackRun, await triagedNow());
      if (rollbackRun.killed) rollbackKills++;
      const rolled = await runCli(rollback, env, null);
      if (rolled.code !== 0) violations.push(`a triage rollback run again after ${rollbackRun.killed ? 'a kill' : 'its end'} failed: ${rolled.output.slice(-500)}`);
      const afterRollback = await triagedNow();
      if (!same(afterRollback, untouched)) violations.push(`a triage rollback run to its end left ${JSON.stringify(afterRollback)}`);
    }
    triaged = judgedAs.quarantined + judgedAs.retyped;

    const findings = await checkStore(handle, acknowledged);
    violations.push(...findings.violations);
    return {
      cell: 'rebuild, erasure, triage apply and rollback killed half-way',
      backend: 'postgres',
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
    rmSync(dir, { recursive: true, force: true });
    await handle.close();
    await database.close();
  }
}
