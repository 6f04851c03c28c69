/**
 * Population triage end to end (R19) on a generated store of 2,000+ "milestones" with planted
 * noise, through the offline rule judge and the real embedding model: control samples first,
 * the frozen file, the dry-run counts, the apply as one batch with its count check, the rollback.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@factledger/domain';
import { CachedEmbedder, InMemoryEmbeddingCache, UseLiteEmbedder } from '@factledger/embeddings';
import {
  AdmissionPolicies,
  type FrozenVerdicts,
  type JudgeInput,
  type LedgerHandle,
  ledgerOn,
  type MemoryJudge,
  PopulationTriage,
  RuleJudge,
  TriageControlsFailedError,
  TriageCountMismatchError,
  TriageStaleError,
} from '@factledger/ledger';
import { createTestDatabase, type TestDatabase } from '@factledger/testing';
import { milestonePopulation as population, TRIAGE_CONTROLS as CONTROLS, type Truth } from '../bench/triage-population';

describe('population triage of 2,000+ planted milestones (rule judge, PGlite)', () => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  let triage: PopulationTriage;
  let judge: RuleJudge;
  const truth = new Map<string, Truth>();
  const dir = mkdtempSync(join(tmpdir(), 'fl-triage-'));
  const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));
  const policies = new AdmissionPolicies();

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    handle = ledgerOn(database, { clock });
    triage = new PopulationTriage({ ledger: handle.ledger, reader: handle.reader, store: handle.store, clock, policyFor: (t) => policies.for(t) });
    judge = new RuleJudge(policies.for('t'), new CachedEmbedder(new UseLiteEmbedder(), new InMemoryEmbeddingCache()));
    const members = population(2_080);
    for (let i = 0; i < members.length; i += 260) {
      const chunk = members.slice(i, i + 260);
      const r = await handle.ledger.writeMany(
        't',
        chunk.map((m) => ({ assert: { text: m.text, type: 'milestone', speaker: 'user' } })),
      );
      r.results.forEach((w, j) => truth.set(w.memoryId, chunk[j]!.truth));
    }
    // Another tenant's milestones are never part of this tenant's population.
    await handle.ledger.assert('other', { text: 'haha ok', type: 'milestone' });
  }, 120_000);
  afterAll(async () => {
    await database.close();
  });

  it('stops before judging when the judge misses the controls: a judge that sees the stored label calls noise real', async () => {
    // What seed 000's first attempt did: the label prefix told the judge the answer.
    const leaky: MemoryJudge = {
      name: 'leaky',
      judge: async (_task, items: JudgeInput[]) => items.map((i) => ({ ref: i.ref, action: 'keep' as const, label: 'real', reason: 'it says milestone' })),
    };
    await expect(triage.judge('t', { population: { type: 'milestone' }, controls: CONTROLS, maxMissRate: 0.1 }, leaky)).rejects.toBeInstanceOf(TriageControlsFailedError);
    await expect(triage.judge('t', { population: { type: 'milestone' }, controls: [] }, judge)).rejects.toThrow(/control sample/);
  });

  it('judges, freezes, dry-runs, applies as one batch with the count check, and rolls back', async () => {
    const frozen = await triage.judge('t', { population: { type: 'milestone', status: 'active' }, controls: CONTROLS, maxMissRate: 0.1 }, judge);
    expect(frozen.counts.total).toBe(truth.size);
    expect(truth.size).toBeGreaterThanOrEqual(2_000);
    expect(frozen.controls.missRate).toBeLessThanOrEqual(0.1);
    expect(frozen.verdicts.every((v) => truth.has(v.memoryId))).toBe(true);

    // The judge found the planted noise: per-verdict agreement with the planted truth.
    const agree = frozen.verdicts.filter((v) => (v.action === 'retype' ? `retype:${v.type}` : v.action) === truth.get(v.memoryId)).length;
    const planted = [...truth.values()].filter((t) => t === 'quarantine').length;
    // The figures the README quotes, printed by every run.
    console.log(
      `triage of ${truth.size} memories (${planted} planted noise): verdicts ${JSON.stringify(frozen.counts)}, ` +
        `agreement with the planted truth ${((agree / frozen.verdicts.length) * 100).toFixed(1)}%, controls missed ${frozen.controls.missed.length}/${frozen.controls.total}`,
    );
    expect(agree / frozen.verdicts.length).toBeGreaterThanOrEqual(0.9);
    expect(Math.abs(frozen.counts.quarantine - planted) / planted).toBeLessThan(0.1);

    // Frozen to a file: the file is what gets applied; an edited file is refused.
    const file = join(dir, 'verdicts.json');
    writeFileSync(file, JSON.stringify(frozen));
    const tampered = JSON.parse(readFileSync(file, 'utf8')) as FrozenVerdicts;
    tampered.verdicts[0] = { ...tampered.verdicts[0]!, action: tampered.verdicts[0]!.action === 'keep' ? 'quarantine' : 'keep' };
    await expect(triage.plan(tampered)).rejects.toThrow(/checksum/);

    const before = await handle.ledger.activeMemories('t', { limit: 5_000 });
    const dry = await triage.plan(JSON.parse(readFileSync(file, 'utf8')));
    expect(dry.counts).toEqual(frozen.counts);
    expect(dry.changed).toEqual([]);
    expect(dry.ops.length).toBe(frozen.counts.quarantine + Object.values(frozen.counts.retype).reduce((a, b) => a + b, 0));
    expect(await handle.ledger.activeMemories('t', { limit: 5_000 })).toEqual(before); // a dry run writes nothing

    const headBefore = await handle.store.head();
    const applied = await triage.apply(JSON.parse(readFileSync(file, 'utf8')));
    expect(applied.observed.quarantined).toBe(frozen.counts.quarantine);
    expect(applied.observed.retyped).toEqual(frozen.counts.retype);
    const batchEvents = await handle.store.readBatch('t', applied.batch);
    expect(batchEvents.length).toBe(applied.ops.length);
    expect(new Set(batchEvents.map((e) => e.recordedAt.getTime())).size).toBe(1); // one append
    expect(Math.max(...batchEvents.map((e) => e.globalPosition))).toBe(applied.position);
    expect(applied.position).toBeGreaterThan(headBefore);

    const after = await handle.reader.population('t', { type: 'milestone', status: 'active' });
    expect(after.length).toBe(frozen.counts.keep);
    const quarantined = await handle.reader.population('t', { type: 'milestone', status: 'quarantined' });
    expect(quarantined.length).toBe(frozen.counts.quarantine);
    const retyped = await handle.reader.population('t', { type: 'profile', status: 'active' });
    expect(retyped.length).toBe(frozen.counts.retype.profile ?? 0);
    expect(retyped.every((m) => m.originalType === 'milestone')).toBe(true);
    expect((await handle.reader.population('other', { type: 'milestone', status: 'active' })).length).toBe(1);

    // The same file again (an apply whose answer was lost, run once more): its batch is in the
    // log, so it is answered from there, checked, and nothing is appended. Found by the
    // reliability suite: it was refused as stale, its memories changed by its own batch.
    const head = await handle.store.head();
    const again = await triage.apply(JSON.parse(readFileSync(file, 'utf8')));
    expect(again).toMatchObject({ replayed: true, position: applied.position, observed: applied.observed, counts: frozen.counts, changed: [] });
    expect(await handle.store.head()).toBe(head);
    // Under another batch label it is a new apply, and every memory it names has changed since it was frozen.
    await expect(triage.apply(JSON.parse(readFileSync(file, 'utf8')), { batch: 'another' })).rejects.toBeInstanceOf(TriageStaleError);

    console.log(`dry run ${JSON.stringify(dry.counts)}; applied ${applied.ops.length} changes in one append at position ${applied.position}; count check ${JSON.stringify(applied.observed)}`);
    const rolled = await triage.rollback('t', applied.batch);
    expect(rolled.items.length).toBe(applied.ops.length);
    const restored = await handle.reader.population('t', { type: 'milestone', status: 'active' });
    expect(restored.length).toBe(truth.size);
    // Once rolled back, the file's batch no longer shows in the store: run again, it says so.
    await expect(triage.apply(JSON.parse(readFileSync(file, 'utf8')))).rejects.toBeInstanceOf(TriageCountMismatchError);
    expect(await handle.store.head()).toBe(rolled.position);
  }, 300_000);
});
