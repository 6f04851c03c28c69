/**
 * Recall on long conversations, one external set at a time, run through `factledger eval` beside
 * the BM25 and BM25 + cosine (RRF) baselines in the same run, written to
 * `bench/results/<set>.json` with the table the docs show:
 *
 *   npm run bench:locomo    the LoCoMo conversations of `../shared/eval/locomo` (400 tokens)
 *   npm run bench:beam      the BEAM chats of `../shared/eval/beam` (400 and 1,000 tokens);
 *                           event ordering is reported and left out of the headline rate
 *   npm run bench:meme      the MEME-style chats of `../shared/eval/meme` (memories that hang on
 *                           memories: probes before and after a change, 400 and 1,000 tokens)
 *
 * A question counts when every one of its evidence turns is in the context, whole. A step whose
 * note names the opening of a message that stated a value since changed (`old=["…"]`) also counts
 * whether that opening stayed out of the context (`newOnly`). FL_<SET>_DIR points elsewhere,
 * FL_<SET>_BACKEND=postgres runs on a native server (PGlite by default).
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { Backend } from '@factledger/store';
import { BASELINES, type BaselineName } from '../apps/cli/src/eval/baselines';
import { compareRuns, evalFile } from '../apps/cli/src/eval/run-eval';
import { contextShows, type ScenarioReport } from '../apps/cli/src/eval/scenario-runner';
import { msSince, tick } from './stats';

const SETS = { locomo: { leaveOut: null }, beam: { leaveOut: 'event_ordering' }, meme: { leaveOut: null } } as const;
const SET = (process.argv[2] ?? 'locomo') as keyof typeof SETS;
if (!(SET in SETS)) throw new Error(`unknown set ${SET}: one of ${Object.keys(SETS).join(', ')}`);
const ENV = SET.toUpperCase();
const DIR = process.env[`FL_${ENV}_DIR`] ?? join(__dirname, '..', '..', '..', 'shared', 'eval', SET);
const BACKEND = (process.env[`FL_${ENV}_BACKEND`] ?? 'pglite') as Backend;
const log = (m: string): void => void process.stderr.write(`${m}\n`);

type Step = ScenarioReport['steps'][number];
/** The openings a step's note names as stale (`old=["…"]`), none when it names none. */
function staleOpenings(step: Step): string[] {
  const at = step.note?.indexOf('old=') ?? -1;
  if (at < 0) return [];
  try {
    const list: unknown = JSON.parse(step.note!.slice(at + 4));
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Passed / all over the query steps a filter picks. */
function rate(reports: ScenarioReport[], pick: (s: Step) => boolean, passed: (s: Step) => boolean = (s) => s.status === 'passed'): { passed: number; of: number; rate: number } {
  const steps = reports.flatMap((r) => r.steps.filter((s) => s.step === 'query' && pick(s)));
  const ok = steps.filter(passed).length;
  return { passed: ok, of: steps.length, rate: steps.length ? Math.round((1000 * ok) / steps.length) / 10 : 0 };
}

async function main(): Promise<void> {
  if (!existsSync(DIR)) throw new Error(`no ${SET} scenarios at ${DIR} (set FL_${ENV}_DIR)`);
  const files = readdirSync(DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(DIR, f));
  const started = tick();
  const runs: { name: string; reports: ScenarioReport[] }[] = [];
  log(`[${SET}] factledger on ${BACKEND}: ${files.length} conversations`);
  const own: ScenarioReport[] = [];
  for (const file of files) own.push(await evalFile(file, BACKEND));
  runs.push({ name: 'factledger', reports: own });
  for (const name of BASELINES.filter((b) => b !== 'naive-rag') as BaselineName[]) {
    log(`[${SET}] baseline ${name}`);
    const reports: ScenarioReport[] = [];
    for (const file of files) reports.push(await evalFile(file, BACKEND, { baseline: name }));
    runs.push({ name, reports });
  }
  const summary = Object.fromEntries(
    runs.map((r) => [
      r.name,
      {
        all: rate(r.reports, () => true),
        ...(SETS[SET].leaveOut ? { [`without ${SETS[SET].leaveOut}`]: rate(r.reports, (s) => !s.note?.includes(SETS[SET].leaveOut!)) } : {}),
        // The new value's message whole, and no message that stated the old one opening the context.
        newOnly: rate(
          r.reports,
          (s) => staleOpenings(s).length > 0,
          (s) => s.status === 'passed' && !staleOpenings(s).some((o) => contextShows(s.context?.text ?? '', o)),
        ),
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
    set: SET,
    backend: BACKEND,
    files: files.map((f) => f.slice(DIR.length + 1)),
    machine: { cpus: cpus().length, node: process.version },
    summary,
    perFile: own.map((r) => ({ file: r.file, passed: r.passed, failed: r.failed })),
    // Each conversation (a tenant) apart: a change that helps one and hurts another is a fit.
    perConversation: Object.fromEntries([...new Set(own.flatMap((r) => r.steps.map((s) => s.tenant).filter((t): t is string => !!t)))].map((t) => [t, rate(own, (s) => s.tenant === t)])),
    runtimeMs: Math.round(msSince(started)),
    markdown,
  };
  writeFileSync(join(dir, `${SET}.json`), JSON.stringify(result, null, 2));
  console.log(markdown);
  log(`results: bench/results/${SET}.json; runtime ${Math.round(result.runtimeMs / 1000)} s`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
