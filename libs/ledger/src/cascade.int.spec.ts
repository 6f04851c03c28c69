/**
 * The cascade (R32) over the real log and read models: a memory that hangs on another is marked
 * unconfirmed when that one changes (with what took its place), answers that cited it reopen, a
 * rule for later applies when its premise changes (its consequence stated, what it replaces
 * retracted, the rule spent), all of it rolled back with the change's batch; chains stop at their
 * depth, and a page read again (a second saga from position 0) writes nothing twice.
 */
import { ManualClock } from '@factledger/domain';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { sql } from 'kysely';
import { CascadeSaga, MAX_DEPTH } from './cascade.saga';
import { type LedgerHandle, ledgerOn } from './create-ledger';

describe.each(testBackends())('the cascade on %s', (backend) => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));
  const tick = () => clock.advance(60_000);

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    handle = ledgerOn(database, { clock });
  });
  afterAll(() => database.close());

  const events = async (tenant: string): Promise<number> => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_events WHERE tenant = ${tenant}`.execute(database.db)).rows[0]!.n);

  it('marks a memory that hangs on a changed one unconfirmed, with what took its place; reopens its answers; a confirmation clears it', async () => {
    const { ledger, cascade, saga, answers } = handle;
    const lead = await ledger.assert('dep', { subject: 'team', relation: 'lead', value: 'Tomasz Wrobel' });
    tick();
    const reviewer = await ledger.assert('dep', { subject: 'code', relation: 'reviewer', value: 'Pavel Ilic', dependsOn: [{ subject: 'team', relation: 'lead' }] });
    expect((await ledger.memory('dep', { memoryId: reviewer.memoryId })).dependsOn).toEqual([lead.memoryId]);
    const answer = await answers.record('dep', { question: 'Who reviews?', text: 'Pavel Ilic.', cites: [reviewer.memoryId] });
    tick();
    const next = await ledger.assert('dep', { subject: 'team', relation: 'lead', value: 'Sunhee Baek', batch: 'lead-change' });
    expect(await cascade.catchUp()).toBe(1);
    expect(await ledger.memory('dep', { memoryId: reviewer.memoryId })).toMatchObject({
      status: 'active',
      unconfirmed: { premise: lead.memoryId, by: next.memoryId, event: 'FactSuperseded', depth: 1 },
    });
    await saga.catchUp();
    expect((await answers.answer('dep', { answerId: answer.answerId })).status).toBe('reopened');
    // Read again from the start by another process: nothing is written twice.
    const before = await events('dep');
    await new CascadeSaga(database.db, { ledger, reader: handle.reader, runner: handle.runner, now: () => clock.now() }).catchUp();
    await sql`DELETE FROM fl_checkpoints WHERE name = 'cascade'`.execute(database.db);
    await cascade.catchUp();
    expect(await events('dep')).toBe(before);
    // Confirmed by someone who knows: the mark is cleared; again, nothing changes.
    const other = await ledger.assert('dep', { subject: 'deploy', relation: 'approver', value: 'Pavel Ilic', dependsOn: [next.memoryId] });
    tick();
    await ledger.assert('dep', { subject: 'team', relation: 'lead', value: 'Ines Maro' });
    await cascade.catchUp();
    expect((await ledger.memory('dep', { memoryId: other.memoryId })).unconfirmed).not.toBeNull();
    expect(await ledger.confirm('dep', { memoryId: other.memoryId, reason: 'the new lead kept him' })).toMatchObject({ outcome: 'confirmed' });
    expect((await ledger.memory('dep', { memoryId: other.memoryId })).unconfirmed).toBeNull();
    expect(await ledger.confirm('dep', { memoryId: other.memoryId })).toMatchObject({ outcome: 'unchanged' });
    await ledger.quarantine('dep', { memoryId: other.memoryId, reason: 'noise' });
    await expect(ledger.confirm('dep', { memoryId: other.memoryId })).rejects.toMatchObject({ code: 'illegal_lifecycle' });
    // Said again: confirmed again.
    tick();
    await ledger.assert('dep', { subject: 'code', relation: 'reviewer', value: 'Pavel Ilic', text: 'Pavel Ilic still reviews our code.' });
    expect((await ledger.memory('dep', { memoryId: reviewer.memoryId })).unconfirmed).toBeNull();
  });

  it('applies a rule for later when its premise changes: the consequence stated, what it replaces retracted, the rule spent; a rollback of the change undoes the retractions', async () => {
    const { ledger, cascade } = handle;
    await ledger.assert('rule', { text: 'The team lead is Omar Haddad.' });
    tick();
    const digest = await ledger.assert('rule', { text: 'Omar Haddad decided the weekly digest goes to Nadia Brooks.' });
    const rule = await ledger.assert('rule', { text: 'If the team lead changes, the weekly digest will go to Lars Eriksen.', type: 'rule' });
    tick();
    // Nothing applies while the premise holds.
    expect(await cascade.catchUp()).toBe(0);
    expect((await ledger.memory('rule', { memoryId: digest.memoryId })).status).toBe('active');
    tick();
    await ledger.assert('rule', { text: 'The team lead is Mina Cho.', batch: 'new-lead' });
    await cascade.catchUp();
    expect((await ledger.memory('rule', { memoryId: digest.memoryId })).status).toBe('retired');
    expect((await ledger.memory('rule', { memoryId: rule.memoryId })).status).toBe('retired');
    const active = (await ledger.activeMemories('rule')).map((m) => m.text);
    expect(active).toEqual(expect.arrayContaining(['Weekly digest: Lars Eriksen.', 'The team lead is Mina Cho.']));
    expect(active.some((t) => t.includes('Nadia'))).toBe(false);
    // Rolling the change back gives back what its cascade retracted.
    await ledger.rollback('rule', { batch: 'new-lead' });
    expect((await ledger.memory('rule', { memoryId: digest.memoryId })).status).toBe('active');
    expect((await ledger.memory('rule', { memoryId: rule.memoryId })).status).toBe('active');
  });

  it('carries a change along a chain of dependencies, and stops a cycle at its depth', async () => {
    const { ledger, cascade } = handle;
    const a = await ledger.assert('chain', { subject: 'office', relation: 'manager', value: 'Ines' });
    const b = await ledger.assert('chain', { subject: 'key', relation: 'holder', value: 'Marco', dependsOn: [a.memoryId] });
    const c = await ledger.assert('chain', { subject: 'alarm', relation: 'code owner', value: 'Marco', dependsOn: [b.memoryId] });
    tick();
    await ledger.assert('chain', { subject: 'office', relation: 'manager', value: 'Farid' });
    await cascade.catchUp();
    expect((await ledger.memory('chain', { memoryId: b.memoryId })).unconfirmed).toMatchObject({ premise: a.memoryId, depth: 1 });
    expect((await ledger.memory('chain', { memoryId: c.memoryId })).unconfirmed).toMatchObject({ premise: b.memoryId, depth: 2, event: 'MemoryUnconfirmed' });

    // Two memories that hang on each other: the change goes round at most MAX_DEPTH times.
    const x = await ledger.assert('cycle', { subject: 'x', relation: 'is', value: '1' });
    const y = await ledger.assert('cycle', { subject: 'y', relation: 'is', value: '1', dependsOn: [x.memoryId] });
    const z = await ledger.assert('cycle', { subject: 'z', relation: 'is', value: '1', dependsOn: [y.memoryId] });
    await ledger.assert('cycle', { subject: 'x', relation: 'was', value: 'linked', dependsOn: [z.memoryId] });
    tick();
    await ledger.assert('cycle', { subject: 'x', relation: 'is', value: '2' });
    await cascade.catchUp();
    const marks = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_events WHERE tenant = 'cycle' AND type = 'MemoryUnconfirmed'`.execute(database.db)).rows[0]!.n);
    expect(marks).toBeGreaterThanOrEqual(2);
    expect(marks).toBeLessThanOrEqual(MAX_DEPTH);
    expect(await cascade.catchUp()).toBe(0);
  });

  it('applies a "whenever" rule once a change and keeps it; a spent rule or a dependent changing meets no rule', async () => {
    const { ledger, cascade } = handle;
    await ledger.assert('always', { text: 'The shift supervisor is Odile Marchand.' });
    tick();
    const dependent = await ledger.assert('always', { text: 'Odile Marchand put Yusuf Adeyemi on the late shift; a new shift supervisor would pick again.' });
    await ledger.assert('always', { text: 'If the shift supervisor changes, the opening checklist will go to Bram Visser.', type: 'rule' });
    const whenever = await ledger.assert('always', { text: 'Whenever the shift supervisor changes, the stock count goes to Lotte Kuiper.', type: 'rule' });
    tick();
    await cascade.catchUp();
    await ledger.assert('always', { text: 'The shift supervisor is Hamid Rahimi.' });
    await cascade.catchUp();
    const stated = async (): Promise<string[]> =>
      (await ledger.activeMemories('always'))
        .map((m) => m.text)
        .filter((t) => /^(Opening checklist|Stock count):/.test(t))
        .sort();
    expect(await stated()).toEqual(['Opening checklist: Bram Visser.', 'Stock count: Lotte Kuiper.']);
    expect((await ledger.memory('always', { memoryId: whenever.memoryId })).status).toBe('active');
    // The dependent retracted, the one-off rule spent: neither is a change of the supervisor.
    tick();
    await ledger.retract('always', { memoryId: dependent.memoryId, reason: 'no longer on the late shift' });
    await cascade.catchUp();
    const stockCounts = Number(
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_events WHERE tenant = 'always' AND type = 'FactAsserted' AND data->>'text' LIKE 'Stock count:%'`.execute(database.db)).rows[0]!.n,
    );
    expect(stockCounts).toBe(1);
  });

  it('refuses a dependency that names nothing, and writes nothing', async () => {
    const before = await events('bad');
    await expect(handle.ledger.assert('bad', { text: 'Pia reviews code.', dependsOn: ['00000000-0000-4000-8000-000000000000', { subject: 'team', relation: 'lead' }] })).rejects.toMatchObject({
      code: 'invalid_input',
      issues: [{ path: 'dependsOn.0' }, { path: 'dependsOn.1' }],
    });
    expect(await events('bad')).toBe(before);
  });
});
