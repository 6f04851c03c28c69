/** `Ledger.writeMany`: several writes over several streams, decided together, appended atomically. */
import { ExpectedVersionConflict } from '@factledger/store';
import { InvalidInputError, ManualClock, UnknownMemoryError } from '@factledger/domain';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/store';
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
