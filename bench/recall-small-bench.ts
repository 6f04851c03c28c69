/**
 * `npm run bench:recall-small`: recall on a small store (300 facts and 100 notes, one tenant), as
 * a new user's is, on PGlite and on native PostgreSQL (when FL_PG_ADMIN_URL is set): assemblies
 * before the `statistics` job has run (the planner has no statistics for the read models yet)
 * and after one pass of it, side by side in one run on the same store. Results in
 * bench/results/recall-small.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '@factledger/domain';
import { ledgerOn } from '@factledger/ledger';
import { recallOn } from '@factledger/recall';
import type { Backend } from '@factledger/store';
import { createTestDatabase } from '@factledger/testing';
import { fmtMs, type LatencySummary, msSince, summarize, tick } from './stats';

const FACTS = 300;
const WARMUP = 10;
const RUNS = 100;
const RELATIONS = ['lives in', 'works at', 'uses editor', 'prefers language', 'has pet', 'is allergic to', 'listens on port', 'belongs to team'];
const QUESTIONS = ['Where does person 7 live?', 'Which editor does person 42 use?', 'What is person 13 allergic to?', 'Which port does service 101 listen on?', 'Who sits on floor 3?'];
const log = (m: string) => process.stderr.write(`${m}\n`);

interface Measured {
  backend: Backend;
  before: LatencySummary;
  after: LatencySummary;
  analyzed: string[];
  ratioP50: number;
}

async function measure(backend: Backend): Promise<Measured> {
  const database = await createTestDatabase(backend);
  try {
    const handle = ledgerOn(database);
    const recall = recallOn(database, handle.runner, systemClock, { embeddings: 'use-lite', addressTerms: [], traceRetentionDays: 30, indexIntervalMs: 500 });
    log(`[${backend}] ${FACTS} facts and ${FACTS / 3} notes`);
    for (let i = 0; i < FACTS; i++) {
      await handle.ledger.assert('bench', { subject: `person ${i % 60}`, relation: RELATIONS[i % RELATIONS.length]!, value: `value ${i}` });
      if (i % 3 === 0) await handle.ledger.assert('bench', { text: `The team of service ${i} sits on floor ${i % 9}; host ${i} runs the batch jobs.` });
    }
    await recall.indexer.catchUp();
    const run = async (): Promise<LatencySummary> => {
      const times: number[] = [];
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const t0 = tick();
        await recall.recall.assemble('bench', { query: QUESTIONS[i % QUESTIONS.length]!, budgetTokens: 400 });
        if (i >= WARMUP) times.push(msSince(t0));
      }
      return summarize(times);
    };
    const before = await run();
    const analyzed = (await handle.jobs.find((j) => j.name === 'statistics')!.run()) as string[];
    const after = await run();
    await recall.stop();
    log(`  p50 ${fmtMs(before.p50)} ms before the statistics job, ${fmtMs(after.p50)} ms after (${analyzed.length} tables analyzed)`);
    return { backend, before, after, analyzed, ratioP50: Math.round((before.p50 / after.p50) * 100) / 100 };
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  const backends: Backend[] = process.env.FL_PG_ADMIN_URL ? ['pglite', 'postgres'] : ['pglite'];
  const results: Measured[] = [];
  for (const backend of backends) results.push(await measure(backend));
  const rows = results.map((r) => `| ${r.backend} | ${fmtMs(r.before.p50)} / ${fmtMs(r.before.p95)} ms | ${fmtMs(r.after.p50)} / ${fmtMs(r.after.p95)} ms | ${r.ratioP50}× |`);
  const markdown = [`| backend | p50 / p95, no statistics yet | p50 / p95, after one statistics pass | p50 ratio |`, `|---|---|---|---|`, ...rows].join('\n');
  process.stdout.write(`${markdown}\n`);
  const dir = join(__dirname, '..', '..', 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'recall-small.json'),
    JSON.stringify({ date: new Date().toISOString().slice(0, 10), cpus: cpus().length, load: loadavg()[0], facts: FACTS, notes: FACTS / 3, runs: RUNS, results, markdown }, null, 2),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
