/**
 * Recall on long conversations (`npm run bench:locomo`): the LoCoMo conversations of
 * `../shared/eval/locomo` (or the folder in FL_LOCOMO_DIR) run through `factledger eval`, beside
 * the BM25 and BM25 + cosine (RRF) baselines in the same run, and written to
 * `bench/results/locomo.json` with the table the README shows. A question counts when every one
 * of its evidence turns is in the context, whole, at its 400-token budget.
 *
 *   npm run bench:locomo                       PGlite
 *   FL_LOCOMO_BACKEND=postgres npm run bench:locomo
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { Backend } from '@factledger/store';
import { BASELINES, type BaselineName } from '../apps/cli/src/eval/baselines';
import { compareRuns, evalFile } from '../apps/cli/src/eval/run-eval';
import type { ScenarioReport } from '../apps/cli/src/eval/scenario-runner';
import { msSince, tick } from './stats';

const DIR = process.env.FL_LOCOMO_DIR ?? join(__dirname, '..', '..', '..', 'shared', 'eval', 'locomo');
const BACKEND = (process.env.FL_LOCOMO_BACKEND ?? 'pglite') as Backend;
const log = (m: string): void => void process.stderr.write(`${m}\n`);

/** Passed / all over the query steps a filter picks. */
function rate(reports: ScenarioReport[], pick: (s: ScenarioReport['steps'][number]) => boolean): { passed: number; of: number; rate: number } {
  const steps = reports.flatMap((r) => r.steps.filter((s) => s.step === 'query' && pick(s)));
  const passed = steps.filter((s) => s.status === 'passed').length;
  return { passed, of: steps.length, rate: steps.length ? Math.round((1000 * passed) / steps.length) / 10 : 0 };
}

async function main(): Promise<void> {
  if (!existsSync(DIR)) throw new Error(`no LoCoMo scenarios at ${DIR} (set FL_LOCOMO_DIR)`);
  const files = readdirSync(DIR).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(DIR, f));
  const started = tick();
  const runs: { name: string; reports: ScenarioReport[] }[] = [];
  log(`[locomo] factledger on ${BACKEND}: ${files.length} conversations`);
  const own: ScenarioReport[] = [];
  for (const file of files) own.push(await evalFile(file, BACKEND));
  runs.push({ name: 'factledger', reports: own });
  for (const name of BASELINES.filter((b) => b !== 'naive-rag') as BaselineName[]) {
    log(`[locomo] baseline ${name}`);
    const reports: ScenarioReport[] = [];
    for (const file of files) reports.push(await evalFile(file, BACKEND, { baseline: name }));
    runs.push({ name, reports });
  }
  const summary = Object.fromEntries(
    runs.map((r) => [
      r.name,
      {
        all: rate(r.reports, () => true),
        byNote: Object.fromEntries([...new Set(r.reports.flatMap((x) => x.steps.map((s) => s.note).filter((n): n is string => !!n)))].sort().map((n) => [n, rate(r.reports, (s) => s.note === n)])),
        oneEvidenceTurn: rate(r.reports, (s) => s.expected === 1),
        twoOrMore: rate(r.reports, (s) => (s.expected ?? 0) > 1),
        forbiddenShown: r.reports.flatMap((x) => x.steps).filter((s) => s.step === 'query' && s.detail.includes('should not show')).length,
      },
    ]),
  );
  const markdown = compareRuns(runs);
  const dir = join(__dirname, '..', '..', 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const result = {
    backend: BACKEND,
    files: files.map((f) => f.slice(DIR.length + 1)),
    machine: { cpus: cpus().length, node: process.version },
    summary,
    perFile: own.map((r) => ({ file: r.file, passed: r.passed, failed: r.failed })),
    runtimeMs: Math.round(msSince(started)),
    markdown,
  };
  writeFileSync(join(dir, 'locomo.json'), JSON.stringify(result, null, 2));
  console.log(markdown);
  log(`results: bench/results/locomo.json; runtime ${Math.round(result.runtimeMs / 1000)} s`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
