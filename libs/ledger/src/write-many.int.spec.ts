/** `Ledger.writeMany`: several writes over several streams, decided together, appended atomically. */
import { ExpectedVersionConflict } from '@factledger/store';
import { InvalidInputError, ManualClock, UnknownMemoryError } from '@factledger/domain';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { sql } from 'kysely';
import { type LedgerHandle, ledgerOn } from './create-ledger';

describe.each(testBackends())('Ledger.writeMany on %s', (backend) => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    handle = ledgerOn(database, { clock });
  });
  afterAll(() => database.close());

  const events = async (): Promise<number> => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_events`.execute(database.db)).rows[0]!.n);

  it('decides writes to the same key in order and projects every stream in the same append', async () => {
    const r = await handle.ledger.writeMany('w', [
      { assert: { subject: 'api', relation: 'port', value: '80' } },
      { assert: { subject: 'api', relation: 'port', value: '8080', validFrom: '2026-12-02' } },
      { assert: { text: 'the api is owned by the platform team' } },
    ]);
    expect(r.results.map((x) => x.outcome)).toEqual(['created', 'superseded', 'created']);
    expect((await handle.ledger.fact('w', { subject: 'api', relation: 'port', validAt: '2026-12-03' })).value).toBe('8080');
    expect((await handle.ledger.fact('w', { subject: 'api', relation: 'port', validAt: '2026-12-01T12:00:00Z' })).value).toBe('80');
    expect((await handle.ledger.memory('w', { memoryId: r.results[2]!.memoryId })).text).toBe('the api is owned by the platform team');
  });

  it('appends nothing at all when one op is invalid or names an unknown memory', async () => {
    const before = await events();
    await expect(handle.ledger.writeMany('w', [{ assert: { text: 'fine' } }, { assert: { subject: 'x' } }])).rejects.toMatchObject({
      issues: expect.arrayContaining([expect.objectContaining({ path: 'ops.1.relation' })]),
    });
    await expect(handle.ledger.writeMany('w', [{ assert: { text: 'fine too' } }, { quarantine: { memoryId: 'nope' } }])).rejects.toBeInstanceOf(UnknownMemoryError);
    await expect(handle.ledger.writeMany('w', [{ assert: { text: 'own meta', commandId: 'c' } }])).rejects.toBeInstanceOf(InvalidInputError);
    expect(await events()).toBe(before);
  });

  it('writes lifecycle changes under one batch label that one rollback undoes', async () => {
    const a = await handle.ledger.assert('w', { text: 'noise one', type: 'milestone' });
    const b = await handle.ledger.assert('w', { text: 'noise two', type: 'milestone' });
    const r = await handle.ledger.writeMany('w', [{ quarantine: { memoryId: a.memoryId } }, { retype: { memoryId: b.memoryId, type: 'fact' } }], { batch: 'cleanup-1', commandId: 'cleanup-1' });
    expect(r.results.map((x) => x.outcome)).toEqual(['quarantined', 'retyped']);
    const written = await events();
    // The same writes again change nothing: the decider sees them done, the command id is spent.
    await handle.ledger.writeMany('w', [{ quarantine: { memoryId: a.memoryId } }, { retype: { memoryId: b.memoryId, type: 'fact' } }], { batch: 'cleanup-1', commandId: 'cleanup-1' });
    expect(await events()).toBe(written);
    const labelled = await handle.store.readBatch('w', 'cleanup-1');
    expect(labelled).toHaveLength(2);
    await handle.ledger.rollback('w', { batch: 'cleanup-1' });
    expect((await handle.ledger.memory('w', { memoryId: a.memoryId })).status).toBe('active');
    expect((await handle.ledger.memory('w', { memoryId: b.memoryId })).type).toBe('milestone');
  });

  it('attaches the caller’s own stream to the same append, and fails as a whole on its conflict', async () => {
    const r = await handle.ledger.writeMany('w', [{ assert: { text: 'with a record' } }], {
      attach: (results) => [{ streamId: 'record:1', expectedVersion: 'no-stream', events: [{ eventId: crypto.randomUUID(), type: 'Noted', data: { results } }] }],
    });
    const record = await handle.store.readStream('w', 'record:1');
    expect(record.events[0]!.globalPosition).toBe(r.position);
    expect((record.events[0]!.data as { results: unknown[] }).results).toEqual(r.results);
    const before = await events();
    await expect(
      handle.ledger.writeMany('w', [{ assert: { text: 'must not land' } }], {
        attach: () => [{ streamId: 'record:1', expectedVersion: 'no-stream', events: [{ eventId: crypto.randomUUID(), type: 'Noted', data: {} }] }],
      }),
    ).rejects.toBeInstanceOf(ExpectedVersionConflict);
    expect(await events()).toBe(before);
  });
});

describe.each(testBackends())('the stream cache on %s', (backend) => {
  let database: TestDatabase;
  const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));

  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(() => database.close());

  it('decides the next write on a hot key without reading it back, and a new key or prose memory without a read', async () => {
    const handle = ledgerOn(database, { clock });
    await handle.ledger.assert('c', { subject: 'svc', relation: 'port', value: '1' });
    const reads = jest.spyOn(handle.store, 'readStream');
    clock.advance(1000);
    expect((await handle.ledger.assert('c', { subject: 'svc', relation: 'port', value: '2' })).outcome).toBe('superseded');
    expect((await handle.ledger.assert('c', { text: 'a brand new note' })).outcome).toBe('created');
    expect((await handle.ledger.assert('c', { text: 'a brand new note' })).outcome).toBe('duplicate');
    expect(reads).not.toHaveBeenCalled();
    // Another process with no copy: its guess that the prose is new fails on the append, which
    // brings the stream back as it stands, so the retry decides without reading it.
    const other = ledgerOn(database, { clock });
    const otherReads = jest.spyOn(other.store, 'readStream');
    const otherAppends = jest.spyOn(other.store, 'append');
    expect((await other.ledger.assert('c', { text: 'a brand new note' })).outcome).toBe('duplicate');
    expect(otherAppends).toHaveBeenCalledTimes(1); // refused; a duplicate appends nothing
    // The same for a fact key it has no copy of: guessed new, refused by the append, superseded on the stream it brought back.
    clock.advance(1000);
    expect((await other.ledger.assert('c', { subject: 'svc', relation: 'port', value: '3' })).outcome).toBe('superseded');
    expect(otherAppends).toHaveBeenCalledTimes(3);
    expect(otherReads).not.toHaveBeenCalled();
    // A key nobody wrote yet costs no read at all.
    expect((await handle.ledger.assert('c', { subject: 'svc', relation: 'owner', value: 'ops' })).outcome).toBe('created');
    expect(reads).not.toHaveBeenCalled();
    expect((await handle.ledger.fact('c', { subject: 'svc', relation: 'port' })).value).toBe('3');
  });

  it('stays correct when another process writes the same keys: the stale copy conflicts and is read again', async () => {
    const a = ledgerOn(database, { clock });
    const b = ledgerOn(database, { clock });
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      clock.advance(1000);
      const writer = i % 2 === 0 ? a : b;
      outcomes.push((await writer.ledger.assert('x', { subject: 'api', relation: 'region', value: `r${i}` })).outcome);
    }
    expect(outcomes).toEqual(['created', 'superseded', 'superseded', 'superseded', 'superseded', 'superseded']);
    const history = await a.ledger.history('x', { subject: 'api', relation: 'region' });
    expect(history.entries.filter((e) => e.knownTo === null && e.validTo === null).map((e) => e.value)).toEqual(['r5']);
    expect(await a.store.readStream('x', history.entries[0] ? (await a.reader.memory('x', history.entries[0].memoryId))!.streamId : '')).toMatchObject({ version: 10 });
    // A rollback elsewhere leaves this process's copy stale too; the next write still decides on the truth.
    const q = await b.ledger.writeMany('x', [{ quarantine: { memoryId: history.entries.find((e) => e.value === 'r5')!.memoryId } }], { batch: 'qb' });
    expect(q.results[0]!.outcome).toBe('quarantined');
    clock.advance(1000);
    expect((await a.ledger.assert('x', { subject: 'api', relation: 'region', value: 'r5' })).outcome).not.toBe('reinforced');
  });
});
