/** Runs scenario files, each against its own fresh, empty ledger on the chosen backend. */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { ManualClock } from '@factledger/domain';
import { CachedEmbedder, type Embedder, InMemoryEmbeddingCache, UseLiteEmbedder } from '@factledger/embeddings';
import { ledgerOn } from '@factledger/ledger';
import { type RecallSettings, recallOn, O200kTokenCounter } from '@factledger/recall';
import { type BaselineName, createBaseline } from './baselines';
import { FactLedgerModule } from '@factledger/nest';
import { randomUUID } from 'node:crypto';
import { type Backend, type OpenedKurrentDb, refreshStatistics } from '@factledger/store';
import { createTestDatabase, openKurrentDbOrLocal } from '@factledger/testing';
import { NestFactory } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { runScenario, type ScenarioReport, type StepReport } from './scenario-runner';

/** Scenario runs use the defaults: offline model, no address terms. The index is caught up before each query instead of by the background loop. */
const EVAL_RECALL = { embeddings: 'use-lite', addressTerms: [], traceRetentionDays: 30, indexIntervalMs: 500 } as const satisfies RecallSettings;

/**
 * One model per process (loading it is the slow part), behind a cache in memory: the baselines
 * embed the same texts and questions as one another, and the questions as recall does.
 */
let sharedEmbedder: Embedder | null = null;

/** Where a run's fresh ledgers live: the log and read models in PGlite or native PostgreSQL, or the log in KurrentDB. */
export type EvalBackend = Backend | 'kurrentdb';
export const EVAL_BACKENDS: readonly EvalBackend[] = ['pglite', 'postgres', 'kurrentdb'];

/**
 * The log of a `kurrentdb` run: the server at KURRENTDB_URL, or a local server speaking its
 * protocol when none is set; each scenario file writes streams of its own prefix, so files never
 * see each other's events on a shared server.
 */
function kurrentLog(): Promise<OpenedKurrentDb> {
  return openKurrentDbOrLocal(process.env.KURRENTDB_URL, `factledger-eval-${randomUUID().slice(0, 8)}-`);
}

export async function evalFile(file: string, backend: EvalBackend, options: { baseline?: BaselineName; recallTuning?: string; traces?: boolean } = {}): Promise<ScenarioReport> {
  const embedder = (sharedEmbedder ??= new CachedEmbedder(new UseLiteEmbedder(), new InMemoryEmbeddingCache({ maxEntries: 100_000 })));
  if (options.baseline) {
    const bus = { clock: new ManualClock(), baseline: createBaseline(options.baseline, embedder, new O200kTokenCounter()) };
    return runScenario(`${basename(file)} [${options.baseline}]`, readFileSync(file, 'utf8'), bus);
  }
  // With the log in KurrentDB the read models stay in PostgreSQL: native when FL_PG_ADMIN_URL names a server, else PGlite.
  const log = backend === 'kurrentdb' ? await kurrentLog() : null;
  const database = await createTestDatabase(backend === 'kurrentdb' ? (process.env.FL_PG_ADMIN_URL ? 'postgres' : 'pglite') : backend).catch(async (error: unknown) => {
    await log?.close();
    throw error;
  });
  const clock = new ManualClock();
  const handle = ledgerOn(database, { clock, store: log?.store });
  const recall = recallOn(database, handle.runner, clock, { ...EVAL_RECALL, recallTuning: options.recallTuning }, embedder);
  const app = await NestFactory.createApplicationContext(FactLedgerModule.forRoot({ handle, recall }), { logger: false });
  try {
    const bus = {
      commandBus: app.get(CommandBus),
      queryBus: app.get(QueryBus),
      clock,
      indexRecall: () =>
        handle.cascade
          .catchUp()
          .then(() => recall.indexer.catchUp())
          .then(() => refreshStatistics(database)),
      runSaga: () => handle.cascade.catchUp().then(() => handle.saga.catchUp()),
      runCascade: () => handle.cascade.catchUp(),
      withTraces: options.traces,
    };
    return await runScenario(basename(file), readFileSync(file, 'utf8'), bus);
  } finally {
    await recall.stop();
    await app.close();
    await database.close();
    await log?.close();
  }
}

/** Plain-text report: one line per checked or failed step, then the totals. */
export function formatReport(reports: ScenarioReport[], verbose = false): string {
  const out: string[] = [];
  for (const r of reports) {
    out.push(`${r.file}: ${r.passed} passed, ${r.failed} failed`);
    for (const s of r.steps) {
      if (s.status === 'failed' || verbose || s.status === 'passed') {
        out.push(`  ${s.status === 'failed' ? 'FAIL' : s.status === 'passed' ? 'ok  ' : '    '} line ${s.line} ${s.step}: ${s.detail}`);
      }
    }
  }
  const passed = reports.reduce((n, r) => n + r.passed, 0);
  const failed = reports.reduce((n, r) => n + r.failed, 0);
  out.push(`${passed} passed, ${failed} failed`);
  return out.join('\n');
}

/**
 * A note as a report groups it: its `|`-separated parts without those that carry one step's data
 * (`old=[…]`), so "factconsolidation sh | budget 400 | old=[…]" groups as "factconsolidation sh | budget 400".
 */
export function groupOf(note: string): string {
  return note
    .split(' | ')
    .filter((part) => !/^[\w-]+=/.test(part.trim()))
    .join(' | ')
    .trim();
}

/**
 * Query steps side by side, one column a run (factledger first, then each baseline): the share
 * passed overall, per `note` group (a step's note may name its category: "category 2"), by how
 * many texts a step expects (one, or two and more: a question whose evidence is spread), those
 * that forbid a text (a value since replaced), and how many showed text the scenario says must
 * be absent (stale, retired or unwanted values).
 */
export function compareRuns(runs: { name: string; reports: ScenarioReport[] }[]): string {
  const queries = (rs: ScenarioReport[]) => rs.flatMap((r) => r.steps.filter((s) => s.step === 'query'));
  const rows: { label: string; pick: (s: StepReport) => boolean }[] = [{ label: 'all query steps', pick: () => true }];
  const notes = [
    ...new Set(
      runs.flatMap((r) =>
        queries(r.reports)
          .map((s) => (s.note ? groupOf(s.note) : ''))
          .filter((n) => n !== ''),
      ),
    ),
  ].sort();
  for (const note of notes) rows.push({ label: note, pick: (s) => s.note !== undefined && groupOf(s.note) === note });
  if (runs.some((r) => queries(r.reports).some((s) => (s.forbids ?? 0) > 0))) {
    rows.push({ label: 'a text must be absent (e.g. a replaced value)', pick: (s) => (s.forbids ?? 0) > 0 });
  }
  if (runs.some((r) => queries(r.reports).some((s) => (s.expected ?? 0) > 1))) {
    rows.push({ label: 'one expected text', pick: (s) => s.expected === 1 });
    rows.push({ label: 'two or more expected texts', pick: (s) => (s.expected ?? 0) > 1 });
  }
  const cell = (steps: StepReport[]): string => {
    const passed = steps.filter((s) => s.status === 'passed').length;
    return steps.length ? `${passed}/${steps.length} (${((100 * passed) / steps.length).toFixed(1)}%)` : '—';
  };
  const out = [`| query steps passed | ${runs.map((r) => r.name).join(' | ')} |`, `|---|${runs.map(() => '---').join('|')}|`];
  for (const row of rows) out.push(`| ${row.label} | ${runs.map((r) => cell(queries(r.reports).filter(row.pick))).join(' | ')} |`);
  const leaks = (steps: StepReport[]) => steps.filter((s) => s.detail.includes('should not show')).length;
  out.push(`| showed text the scenario forbids | ${runs.map((r) => String(leaks(queries(r.reports)))).join(' | ')} |`);
  return out.join('\n');
}
