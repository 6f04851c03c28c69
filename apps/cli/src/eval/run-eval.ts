/** Runs scenario files, each against its own fresh, empty ledger on the chosen backend. */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { ManualClock } from '@factledger/domain';
import { type Embedder, UseLiteEmbedder } from '@factledger/embeddings';
import { ledgerOn } from '@factledger/ledger';
import { type RecallSettings, recallOn, O200kTokenCounter } from '@factledger/recall';
import { NaiveRag } from './naive-rag';
import { FactLedgerModule } from '@factledger/nest';
import { type Backend, createTestDatabase } from '@factledger/store';
import { NestFactory } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { runScenario, type ScenarioReport } from './scenario-runner';

/** Scenario runs use the defaults: offline model, no address terms. The index is caught up before each query instead of by the background loop. */
const EVAL_RECALL = { embeddings: 'use-lite', addressTerms: [], traceRetentionDays: 30, indexIntervalMs: 500 } as const satisfies RecallSettings;

/** One model per process: loading it is the slow part. */
let sharedEmbedder: Embedder | null = null;

export type Baseline = 'naive-rag';

export async function evalFile(file: string, backend: Backend, options: { baseline?: Baseline } = {}): Promise<ScenarioReport> {
  const embedder = (sharedEmbedder ??= new UseLiteEmbedder());
  if (options.baseline) {
    const bus = { clock: new ManualClock(), baseline: new NaiveRag(embedder, new O200kTokenCounter()) };
    return runScenario(`${basename(file)} [naive-rag]`, readFileSync(file, 'utf8'), bus);
  }
  const database = await createTestDatabase(backend);
  const clock = new ManualClock();
  const handle = ledgerOn(database, { clock });
  const recall = recallOn(database, handle.runner, clock, EVAL_RECALL, embedder);
  const app = await NestFactory.createApplicationContext(FactLedgerModule.forRoot({ handle, recall }), { logger: false });
  try {
    const bus = { commandBus: app.get(CommandBus), queryBus: app.get(QueryBus), clock, indexRecall: () => recall.indexer.catchUp(), runSaga: () => handle.saga.catchUp() };
    return await runScenario(basename(file), readFileSync(file, 'utf8'), bus);
  } finally {
    await recall.stop();
    await app.close();
    await database.close();
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
 * Query steps side by side: how many each run passed, and the context texts the baseline showed
 * that the scenario says must be absent (stale, retired or unwanted values).
 */
export function compareWithBaseline(ledger: ScenarioReport[], baseline: ScenarioReport[]): string {
  const queries = (rs: ScenarioReport[]) => rs.flatMap((r) => r.steps.filter((s) => s.step === 'query'));
  const l = queries(ledger);
  const b = queries(baseline);
  const leaks = (steps: typeof l) => steps.filter((s) => s.detail.includes('should not show')).length;
  return [
    `query steps: factledger ${l.filter((s) => s.status === 'passed').length}/${l.length} passed, naive-rag ${b.filter((s) => s.status === 'passed').length}/${b.length} passed`,
    `query steps that showed text the scenario forbids (stale or unwanted): factledger ${leaks(l)}, naive-rag ${leaks(b)}`,
  ].join('\n');
}
