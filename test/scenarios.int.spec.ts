/**
 * Memory scenarios run through the real command/query handlers on every backend (the log in
 * PostgreSQL or in KurrentDB): the
 * repository's own (test/scenarios), so that a clone passes on its own (other scenario sets are
 * run by `factledger eval`, see docs/testing.md). Every step of a kind this build supports must
 * pass (unless an earlier step of an unsupported kind left it without its premise, which the
 * report says); kinds that later work adds must be reported as failed with "not supported yet"
 * (never silently skipped).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { testBackends } from '@factledger/testing';
import { evalFile } from '../apps/cli/src/eval/run-eval';
import type { ScenarioReport } from '../apps/cli/src/eval/scenario-runner';

const OWN = join(__dirname, 'scenarios');
const files = readdirSync(OWN)
  .filter((f) => f.endsWith('.jsonl'))
  .sort()
  .map((f) => join(OWN, f));
const label = (file: string): string => file.slice(join(__dirname, '..').length + 1);
const SUPPORTED = new Set(['assert', 'retract', 'quarantine', 'restore', 'retype', 'rollback', 'fact', 'query', 'answer', 'expect', 'verify', 'note', 'message']);

// kurrentdb: the log in KurrentDB (KURRENTDB_URL, or the local protocol server), the read models in PostgreSQL.
describe.each([...testBackends(), 'kurrentdb'] as const)('dev scenarios on %s', (backend) => {
  it.each(files.map((f) => [label(f), f]))('%s: every supported step passes', async (_name, file) => {
    const report = await evalFile(file, backend);
    // A supported check may fail only after a skipped unsupported step, and then says so.
    const failures = report.steps.filter((s) => s.status === 'failed' && SUPPORTED.has(s.step) && s.supported);
    expect(failures).toEqual([]);
    for (const s of report.steps.filter((x) => x.status === 'failed' && SUPPORTED.has(x.step))) {
      expect(s.detail).toContain('after a step this build does not support yet');
    }
    expect(report.steps.filter((s) => s.step === 'query' && s.status === 'passed').length).toBe(report.steps.filter((s) => s.step === 'query' && s.supported).length);
    expect(report.steps.length).toBeGreaterThan(0);
    for (const s of report.steps.filter((x) => !SUPPORTED.has(x.step))) {
      expect(s).toMatchObject({ status: 'failed', supported: false, detail: expect.stringContaining('not supported yet') });
    }
  });
});

describe('the naive-RAG baseline on the dev scenarios', () => {
  it('lets stale and unwanted values into the context where factledger does not', async () => {
    const ledger: ScenarioReport[] = [];
    const baseline: ScenarioReport[] = [];
    for (const file of ['stale-code.jsonl', 'temporal.jsonl', 'profile.jsonl']) {
      ledger.push(await evalFile(join(OWN, file), 'pglite'));
      baseline.push(await evalFile(join(OWN, file), 'pglite', { baseline: 'naive-rag' }));
    }
    const queries = (rs: typeof ledger) => rs.flatMap((r) => r.steps.filter((s) => s.step === 'query'));
    expect(queries(ledger).every((s) => s.status === 'passed')).toBe(true);
    const leaked = queries(baseline).filter((s) => s.status === 'failed' && s.detail.includes('should not show'));
    expect(leaked.length).toBeGreaterThanOrEqual(5);
    expect(leaked.map((s) => s.detail).join('\n')).toContain('should not show "7000"');
    expect(queries(baseline)).toHaveLength(queries(ledger).length);
  });
});

describe("changes said in other words (the repository's own pairs, test/paraphrase)", () => {
  it('show only the new value for at least 90% of updates, and keep every look-alike pair apart', async () => {
    const report = await evalFile(join(__dirname, 'paraphrase', 'updates.jsonl'), 'pglite');
    const queries = report.steps.filter((s) => s.step === 'query');
    const rate = (note: string) => {
      const steps = queries.filter((s) => s.note === note);
      return steps.filter((s) => s.status === 'passed').length / steps.length;
    };
    expect(queries.length).toBe(50);
    expect(rate('update said in other words')).toBeGreaterThanOrEqual(0.9);
    expect(rate('look-alikes both kept')).toBe(1);
    // Whatever failed, no replaced value was shown beside its successor.
    expect(queries.filter((s) => s.detail.includes('should not show'))).toEqual([]);
  });
});

/**
 * A set of changes and look-alikes, by note: at least `min.changes` changes of which ≥ 90% show only
 * the new value, at least `min.apart` look-alike pairs all kept, every step whose note starts with
 * one of `always` passed, and every write passed.
 */
async function expectChangeSet(file: string, backend: Parameters<typeof evalFile>[1], changes: string, min: { changes: number; apart: number }, always: string[]): Promise<void> {
  const report = await evalFile(file, backend);
  const queries = report.steps.filter((s) => s.step === 'query');
  const of = (pick: (note: string) => boolean) => queries.filter((s) => s.note !== undefined && pick(s.note));
  const rate = (steps: typeof queries) => steps.filter((s) => s.status === 'passed').length / steps.length;
  const changed = of((n) => n.startsWith(changes));
  const apart = of((n) => n.includes('both kept'));
  expect(changed.length).toBeGreaterThanOrEqual(min.changes);
  expect(apart.length).toBeGreaterThanOrEqual(min.apart);
  expect(rate(changed)).toBeGreaterThanOrEqual(0.9);
  expect(rate(apart)).toBe(1);
  expect(of((n) => always.some((a) => n.startsWith(a))).every((s) => s.status === 'passed')).toBe(true);
  expect(report.steps.filter((s) => s.step !== 'query' && s.status === 'failed')).toEqual([]);
}

describe.each(testBackends())("values restated in the same words (the repository's own set, test/restatement) on %s", (backend) => {
  it('show only the new value for at least 90% of restatements, keep every look-alike pair, and read the old value as of before', async () => {
    // As-of reads before a restatement, and a restatement rolled back, hold every time; every write (and the fact read of a frame's key) passes.
    await expectChangeSet(join(__dirname, 'restatement', 'restatements.jsonl'), backend, 'value restated', { changes: 20, apart: 15 }, ['as of', 'a restatement rolled back']);
  });
});

describe.each(testBackends())("statements inside turns changed by later ones (the repository's own set, test/parts) on %s", (backend) => {
  it('show only the new value for at least 90% of changes, keep the rest of the turn, keep every look-alike, and read the old value as of before', async () => {
    await expectChangeSet(join(__dirname, 'parts', 'changed-parts.jsonl'), backend, 'part changed', { changes: 10, apart: 6 }, ['the rest', 'as of', 'rolled back']);
  });
});

describe.each(testBackends())("a value the question asks for, said again in a later turn (the repository's own set, test/parts) on %s", (backend) => {
  it('shows only the newer value, both for a question about how it went, keeps every look-alike, and reads the old value as of before', async () => {
    await expectChangeSet(join(__dirname, 'parts', 'asked-again.jsonl'), backend, 'asked again', { changes: 4, apart: 3 }, ['how it went', 'as of', 'the rest']);
  });
});
