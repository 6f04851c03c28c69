/**
 * The public dev scenarios, run through the real command/query handlers on every backend.
 * Every step of a kind this build supports must pass; kinds that later work adds must be
 * reported as failed with "not supported yet" (never silently skipped).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { testBackends } from '@factledger/store';
import { evalFile } from '../apps/cli/src/eval/run-eval';

const DEV = join(__dirname, '..', '..', 'shared', 'eval', 'dev');
const files = readdirSync(DEV).filter((f) => f.endsWith('.jsonl')).sort();
const SUPPORTED = new Set(['assert', 'retract', 'quarantine', 'restore', 'retype', 'rollback', 'fact', 'note']);

describe.each(testBackends())('dev scenarios on %s', (backend) => {
  it.each(files)('%s: every supported step passes', async (file) => {
    const report = await evalFile(join(DEV, file), backend);
    const failures = report.steps.filter((s) => s.status === 'failed' && SUPPORTED.has(s.step));
    expect(failures).toEqual([]);
    expect(report.steps.length).toBeGreaterThan(0);
    for (const s of report.steps.filter((x) => !SUPPORTED.has(x.step))) {
      expect(s).toMatchObject({ status: 'failed', supported: false, detail: expect.stringContaining('not supported yet') });
    }
  });
});
