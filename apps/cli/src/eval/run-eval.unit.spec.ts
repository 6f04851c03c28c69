import { compareRuns, groupOf } from './run-eval';
import type { ScenarioReport } from './scenario-runner';

describe("the eval's side-by-side report", () => {
  it("groups notes without the parts that carry one step's data", () => {
    expect(groupOf('factconsolidation sh | budget 400 | old=["X is Y."]')).toBe('factconsolidation sh | budget 400');
    expect(groupOf('category 2')).toBe('category 2');
    expect(groupOf('knowledge_update | budget 1000 | old=[] | id=7')).toBe('knowledge_update | budget 1000');
  });

  it('counts the steps that forbid a text apart, and those that showed one', () => {
    const step = (status: 'passed' | 'failed', note: string, forbids?: number) => ({
      line: 1,
      step: 'query',
      tenant: 't',
      status,
      detail: status === 'failed' ? 'should not show "X is Y."' : 'ok',
      supported: true,
      note,
      expected: 1,
      ...(forbids ? { forbids } : {}),
    });
    const report: ScenarioReport = { file: 'f', passed: 2, failed: 1, steps: [step('passed', 'fc | old=["a"]', 1), step('failed', 'fc | old=["b"]', 1), step('passed', 'fc | old=[]')] };
    const table = compareRuns([{ name: 'factledger', reports: [report] }]);
    expect(table).toContain('| fc | 2/3 (66.7%) |');
    expect(table).toContain('| a text must be absent (e.g. a replaced value) | 1/2 (50.0%) |');
    expect(table).toContain('| showed text the scenario forbids | 1 |');
  });
});
