/**
 * Statements inside a turn that a later turn changes (@factledger/domain turn-parts.ts), through
 * the ledger on each backend: the decision in the write's result, the span hidden in the memory
 * row while its text stays whole, and the batch rollback that gives it back.
 */
import { ManualClock } from '@factledger/domain';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { type LedgerHandle, ledgerOn } from './create-ledger';

describe.each(testBackends())('statements inside turns on %s', (backend) => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  const clock = new ManualClock(new Date('2026-05-01T09:00:00Z'));

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    handle = ledgerOn(database, { clock });
  });
  afterAll(() => database.close());

  const before = 'Hi! Our integration suite has 120 tests and takes 9 minutes on CI. I also moved the design docs to the wiki.';
  const part = 'Our integration suite has 120 tests and takes 9 minutes on CI.';

  it('hides the changed statement of the earlier turn, keeps its text, and rolls back', async () => {
    const first = await handle.ledger.assert('t1', { text: before, speaker: 'user', type: 'episode' });
    clock.advance(86_400_000);
    const second = await handle.ledger.assert('t1', { text: 'The integration suite now has 180 tests after the refund cases.', speaker: 'user', type: 'episode' });
    expect(second.replacedParts).toEqual([
      expect.objectContaining({
        memoryId: first.memoryId,
        parts: [{ start: before.indexOf(part), end: before.indexOf(part) + part.length, text: part }],
        kind: 'count',
        earlierValue: '120 tests',
        nextValue: '180 tests',
      }),
    ]);
    const view = await handle.ledger.memory('t1', { memoryId: first.memoryId, minPosition: second.position });
    expect(view).toMatchObject({ text: before, status: 'active' });
    expect(view.hiddenParts).toEqual([
      { start: before.indexOf(part), end: before.indexOf(part) + part.length, text: part, by: second.memoryId, from: clock.now().toISOString(), at: clock.now().toISOString(), undoneAt: null },
    ]);

    // Another speaker's statement, or a tenant's other memory, is never touched.
    const other = await handle.ledger.assert('t2', { text: before, speaker: 'user', type: 'episode' });
    await handle.ledger.assert('t2', { text: 'The integration suite now has 180 tests after the refund cases.', speaker: 'assistant', type: 'episode' });
    expect((await handle.ledger.memory('t2', { memoryId: other.memoryId })).hiddenParts).toEqual([]);

    clock.advance(60_000);
    const rolled = await handle.ledger.rollback('t1', { batch: `restatement:${second.memoryId}` });
    expect(rolled.items).toEqual(expect.arrayContaining([expect.objectContaining({ memoryId: first.memoryId, change: 'MemoryPartsSuperseded', result: 'compensated' })]));
    expect((await handle.ledger.memory('t1', { memoryId: first.memoryId, minPosition: rolled.position })).hiddenParts).toEqual([
      expect.objectContaining({ by: second.memoryId, undoneAt: clock.now().toISOString() }),
    ]);
  });

  it('changes nothing, and reads nothing, for a statement that says no value holds now', async () => {
    const r = await handle.ledger.assert('t3', { text: 'Thanks, the refund cases look good to me.', speaker: 'user', type: 'episode' });
    expect(r.replacedParts).toBeUndefined();
  });
});
