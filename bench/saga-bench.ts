/**
 * The re-review saga benchmark (`npm run bench:saga`), on native PostgreSQL:
 * - throughput: answers citing N facts, every fact superseded, then the saga run over the backlog
 *   (reopens/s);
 * - lag from a lifecycle event to its reopen, under a steady write load with the saga running in
 *   the background as the server runs it (p50/p99, from the two events' recorded times).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '@factledger/domain';
import { ledgerOn } from '@factledger/ledger';
import { createTestDatabase } from '@factledger/testing';
import { sql } from 'kysely';
import { fmtInt, fmtMs, msSince, round, summarize, tick } from './stats';

const BACKLOG = Number(process.env.FL_SAGA_BENCH_ANSWERS ?? 2000);
const LOAD_SECONDS = 20;
const log = (m: string): void => void process.stderr.write(`${m}\n`);

async function main(): Promise<void> {
  const database = await createTestDatabase('postgres');
  try {
    const handle = ledgerOn(database, { clock: systemClock });
    const { ledger, answers, saga } = handle;
    log(`[saga] ${fmtInt(BACKLOG)} answers citing ${fmtInt(BACKLOG)} facts, then every fact superseded`);
    for (let i = 0; i < BACKLOG; i++) {
      const m = await ledger.assert('b', { subject: `service ${i}`, relation: 'port', value: '8000' });
      await answers.record('b', { text: `Service ${i} listens on 8000.`, cites: [m.memoryId] });
    }
    for (let i = 0; i < BACKLOG; i++) await ledger.assert('b', { subject: `service ${i}`, relation: 'port', value: '8080' });
    await saga.catchUp(); // warm-up pass over the first backlog; the second, equal one is timed
    for (let i = 0; i < BACKLOG; i++) {
      const m = await ledger.assert('c', { subject: `service ${i}`, relation: 'port', value: '8000' });
      await answers.record('c', { text: `Service ${i} listens on 8000.`, cites: [m.memoryId] });
    }
    for (let i = 0; i < BACKLOG; i++) await ledger.assert('c', { subject: `service ${i}`, relation: 'port', value: '8080' });
    const t0 = tick();
    const reopened = await saga.catchUp();
    const ms = msSince(t0);
    const throughput = { reopened, ms: Math.round(ms), reopensPerSec: Math.round((reopened / ms) * 1000) };
    log(`  ${fmtInt(reopened)} reopens in ${fmtInt(ms)} ms: ${fmtInt(throughput.reopensPerSec)}/s`);

    log(`[saga] steady load for ${LOAD_SECONDS} s: record an answer and supersede its fact, ~10 times a second, saga in the background`);
    handle.startWorkers(50, (e) => log(`saga error: ${String(e)}`));
    const started = Date.now();
    let n = 0;
    while (Date.now() - started < LOAD_SECONDS * 1000) {
      const m = await ledger.assert('l', { subject: `host ${n}`, relation: 'ip', value: '10.0.0.1' });
      await answers.record('l', { text: `Host ${n} is at 10.0.0.1.`, cites: [m.memoryId] });
      await ledger.assert('l', { subject: `host ${n}`, relation: 'ip', value: '10.0.0.2' });
      n++;
      await new Promise((r) => setTimeout(r, 100));
    }
    for (let i = 0; i < 200; i++) {
      const { checkpoint, head } = await saga.lag();
      if (checkpoint >= head) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await handle.stopWorkers();
    const lags = await sql<{ ms: number }>`
      SELECT extract(epoch FROM r.recorded_at - s.recorded_at) * 1000 AS ms
      FROM fl_events r JOIN fl_events s ON s.global_position = (r.data->'cause'->>'position')::bigint
      WHERE r.tenant = 'l' AND r.type = 'AnswerReopened'`.execute(database.db);
    const lag = summarize(lags.rows.map((r) => Number(r.ms)));
    log(`  ${lag.n} reopens of ${n} supersessions; lag p50 ${fmtMs(lag.p50)} ms, p99 ${fmtMs(lag.p99)} ms`);
    const markdown = [
      '| measure | result | target |',
      '|---|---|---|',
      `| Saga throughput over a backlog of ${fmtInt(BACKLOG)} superseded citations | ${fmtInt(throughput.reopensPerSec)} reopens/s | reported |`,
      `| Lifecycle event → reopen, steady load (${round(n / LOAD_SECONDS, 1)} supersessions/s), n=${lag.n}, p50 / p99 | ${fmtMs(lag.p50)} / ${fmtMs(lag.p99)} ms | reported |`,
    ].join('\n');
    const dir = join(__dirname, '..', '..', 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'saga.json'), JSON.stringify({ cpus: cpus().length, load: loadavg()[0], throughput, lag, supersessions: n, markdown }, null, 2));
    console.log(markdown);
  } finally {
    await database.close().catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
