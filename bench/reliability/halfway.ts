/**
 * Half-way cell: the long operations an operator starts from the CLI, SIGKILLed at random moments
 * while they run, on native PostgreSQL.
 * - `factledger rebuild facts`: after each kill the read models hold exactly what they held before
 *   (a rebuild is one transaction, or builds beside the live tables and swaps them in one), and a
 *   rebuild run to its end afterwards gives them back again.
 * - `factledger erase --all` of a tenant of many memories: after each kill the log's chain
 *   verifies and, once the read models caught up, the tenant's memories are either all there or
 *   all gone (an erasure is one transaction in the log); the erasure run to its end afterwards leaves none of them, and the chain holds.
 * Then the store checks of the crash cells over the other tenant's writes (checks.ts).
 */
import { spawn } from 'node:child_process';
import { createLedger, loadConfig } from '@factledger/ledger';
import { createTestDatabase } from '@factledger/store';
import { sql } from 'kysely';
import { Rng } from '../stats';
import { type AcknowledgedWrite, checkStore } from './checks';
import { CLI } from './server-process';

export interface HalfwayCellResult {
  cell: string;
  backend: string;
  kills: number;
  rebuildKills: number;
  erasureKills: number;
  memories: number;
  erased: number;
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
      const run = await runCli(['erase', '--tenant', 'leaving', '--all'], env, Math.round(idle.ms * (0.8 + 0.4 * rng.next()) + 2500 * rng.next()));
      const verified = await handle.store.verify();
      if (!verified.ok) violations.push(`after an erasure ${run.killed ? 'killed' : 'ended'} at ${run.ms} ms the chain breaks at ${verified.position}: ${verified.message}`);
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

    const findings = await checkStore(handle, acknowledged);
    violations.push(...findings.violations);
    return { cell: 'rebuild and erasure killed half-way', backend: 'postgres', kills: rebuildKills + erasureKills, rebuildKills, erasureKills, memories, erased, events: findings.events, ms: Date.now() - started, violations };
  } finally {
    await handle.close();
    await database.close();
  }
}
