/**
 * Erasure against the ledger's own machinery: a process that decided on a copy of a stream made
 * before the erasure conflicts on the stream's version and decides again on what is left; a
 * rollback of a batch whose memories were erased undoes nothing; the same words said again
 * start a new memory.
 */
import { ManualClock } from '@factledger/domain';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { type LedgerHandle, ledgerOn } from './create-ledger';

describe.each(testBackends())('Erasures on %s', (backend) => {
  let database: TestDatabase;
  let here: LedgerHandle;
  let elsewhere: LedgerHandle;
  const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    here = ledgerOn(database, { clock });
    // A second process on the same database: its own copies of streams, its own caches.
    elsewhere = ledgerOn(database, { clock });
  });
  afterAll(() => database.close());

  it('makes a stale copy of an erased stream conflict, so nothing decided on it can refer to an erased version', async () => {
    const first = await elsewhere.ledger.assert('s', { subject: 'user', relation: 'phone', value: '555-0101' });
    await elsewhere.ledger.assert('s', { subject: 'user', relation: 'phone', value: '555-0102' }); // elsewhere keeps the stream's copy
    const erased = await here.erasures.erase('s', { memoryId: first.memoryId });
    expect(erased.memoryIds).toHaveLength(2);
    clock.advance(1000);
    // Decided on the stale copy this would supersede 555-0102; the version check sends it back to read what is left.
    const next = await elsewhere.ledger.assert('s', { subject: 'user', relation: 'phone', value: '555-0103' });
    expect(next.outcome).toBe('created');
    const fact = await here.ledger.fact('s', { subject: 'user', relation: 'phone', minPosition: next.position });
    expect(fact.versions.map((v) => v.value)).toEqual(['555-0103']);
    expect((await here.ledger.history('s', { subject: 'user', relation: 'phone' })).entries.map((e) => e.value)).toEqual(['555-0103']);
    for (const id of erased.memoryIds) await expect(elsewhere.ledger.memory('s', { memoryId: id })).rejects.toMatchObject({ code: 'memory_erased' });
    await expect(elsewhere.ledger.quarantine('s', { memoryId: first.memoryId })).rejects.toMatchObject({ code: 'memory_erased' });
  });

  it('says the same prose again as a new memory, and a rollback of an erased batch changes nothing', async () => {
    const said = await here.ledger.assert('p', { text: 'The vault opens at dawn.' });
    await here.ledger.quarantine('p', { memoryId: said.memoryId, batch: 'review-1' });
    await here.erasures.erase('p', { memoryId: said.memoryId });
    const rollback = await here.ledger.rollback('p', { batch: 'review-1' });
    expect(rollback.items).toEqual([]);
    const again = await here.ledger.assert('p', { text: 'The vault opens at dawn.' });
    expect(again).toMatchObject({ outcome: 'created' });
    expect(again.memoryId).not.toBe(said.memoryId);
    expect(await here.store.verify()).toMatchObject({ ok: true });
  });

  it('leaves the read models as a rebuild from the erased log gives them, and a later write on an erased key lands', async () => {
    for (let i = 0; i < 3; i++) await here.ledger.assert('gone', { subject: `service ${i}`, relation: 'port', value: String(8000 + i) });
    await here.ledger.assert('gone', { subject: 'service 0', relation: 'port', value: '9000' });
    await here.ledger.assert('gone', { text: 'The vault code is 4471.' });
    await here.erasures.erase('gone', { all: true });
    const live = await here.runner.rows('facts');
    await here.runner.rebuild('facts');
    expect(await here.runner.rows('facts')).toEqual(live);
    const later = await here.ledger.assert('gone', { subject: 'service 0', relation: 'port', value: '9100' });
    expect((await here.ledger.fact('gone', { subject: 'service 0', relation: 'port', minPosition: later.position })).versions.map((v) => v.value)).toEqual(['9100']);
  });
});
