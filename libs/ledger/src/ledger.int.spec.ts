import { CardinalityConflictError, CommandIdReusedError, InvalidInputError, ManualClock, UnknownBatchError, UnknownMemoryError } from '@factledger/domain';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { sql } from 'kysely';
import { type LedgerHandle, ledgerOn } from './create-ledger';

describe.each(testBackends())('Ledger on %s', (backend) => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));
  const tick = () => clock.advance(1000);

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    handle = ledgerOn(database, { clock });
  });
  afterAll(() => database.close());

  const eventCount = async (): Promise<number> => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_events`.execute(database.db)).rows[0]!.n);

  it('supersedes by key and keeps the old value in its own valid period, with the events in the history', async () => {
    const { ledger } = handle;
    await ledger.assert('h', { subject: 'Payment Service', relation: 'port', value: '8000', validFrom: '2026-01-05' });
    tick();
    const second = await ledger.assert('h', { subject: 'payment  service', relation: 'PORT', value: '8080', validFrom: '2026-02-01' });
    expect(second.outcome).toBe('superseded');
    const now = await ledger.fact('h', { subject: 'payment service', relation: 'port', minPosition: second.position });
    expect(now.value).toBe('8080');
    const before = await ledger.fact('h', { subject: 'payment service', relation: 'port', validAt: '2026-01-20' });
    expect(before.value).toBe('8000');
    const history = await ledger.history('h', { subject: 'payment service', relation: 'port' });
    expect(history.entries.map((e) => [e.value, e.openedBy.event, e.closedBy?.event ?? null, e.validTo])).toEqual([
      ['8000', 'FactAsserted', 'FactSuperseded', null],
      ['8000', 'FactSuperseded', null, '2026-02-01T00:00:00.000Z'],
      ['8080', 'FactAsserted', null, null],
    ]);
    // Each row says its memory's status now, as GET /memories/{id} does (the retired one is not "active"), and how the row shows it.
    expect(history.entries.map((e) => [e.value, e.status, e.shownAs])).toEqual([
      ['8000', 'retired', 'active'],
      ['8000', 'retired', 'active'],
      ['8080', 'active', 'active'],
    ]);
  });

  it('lets only one of many concurrent writers to a key decide against each state (no overlapping versions)', async () => {
    const { ledger } = handle;
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((v, i) => ledger.assert('race', { subject: 'leader', relation: 'is', value: v, validFrom: `2026-03-0${i + 1}` })));
    expect(results.every((r) => r.position > 0)).toBe(true);
    const open = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM fl_fact_history WHERE tenant = 'race' AND status = 'active' AND upper_inf(tx) AND upper_inf(valid)`.execute(database.db);
    expect(open.rows[0]!.n).toBe(1);
    expect((await ledger.fact('race', { subject: 'leader', relation: 'is' })).value).toBe('e');
    expect((await ledger.fact('race', { subject: 'leader', relation: 'is', validAt: '2026-03-02T12:00:00Z' })).value).toBe('b');
  });

  it('appends a retried command once and says it was replayed; another command under its id is refused', async () => {
    const { ledger } = handle;
    const first = await ledger.assert('idem', { text: 'I like green tea.', commandId: 'msg-1' });
    const count = await eventCount();
    const again = await ledgerOn(database, { clock }).ledger.assert('idem', { text: 'I like green tea.', commandId: 'msg-1' });
    expect(again).toMatchObject({ replayed: true, position: first.position, memoryId: first.memoryId });
    await expect(ledger.assert('idem', { text: 'I like black tea.', commandId: 'msg-1' })).rejects.toBeInstanceOf(CommandIdReusedError);
    expect(await eventCount()).toBe(count);
  });

  // Found by the reliability suite (bench/reliability): a client whose reply was lost to a server
  // crash retries against a new process, which knows nothing of the first attempt yet.
  it('answers a retried command with the memory on record, from a process that has not seen the first attempt', async () => {
    const first = await handle.ledger.assert('idem', { subject: 'service 19', relation: 'port', value: '1019', commandId: 'crash-memory-19' });
    expect(first).toMatchObject({ outcome: 'created', replayed: false });
    const fresh = ledgerOn(database, { clock });
    const count = await eventCount();
    const again = await fresh.ledger.assert('idem', { subject: 'service 19', relation: 'port', value: '1019', commandId: 'crash-memory-19' });
    expect(again).toMatchObject({ memoryId: first.memoryId, replayed: true, position: first.position });
    expect(await eventCount()).toBe(count);
    expect((await fresh.ledger.memory('idem', { memoryId: again.memoryId })).value).toBe('1019');
    // The same command id in another tenant is another command, with memories of its own.
    const elsewhere = await fresh.ledger.assert('idem-2', { subject: 'service 19', relation: 'port', value: '1019', commandId: 'crash-memory-19' });
    expect(elsewhere.memoryId).not.toBe(first.memoryId);
  });

  // Found by the reliability suite: eight clients ingesting like messages at once had a third refused.
  it('lands every one of many like prose statements written at once', async () => {
    const regions = ['Frankfurt', 'Dublin', 'Oslo', 'Madrid'];
    const texts = Array.from({ length: 16 }, (_, k) => `I moved build agent ${k} to the ${regions[k % 4]} region and it now runs Node ${18 + (k % 5)}.`);
    const settled = await Promise.allSettled(texts.map((text) => handle.ledger.assert('frames', { text })));
    expect(settled.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
  });

  it('rejects bad input with field-level issues and changes nothing', async () => {
    const { ledger } = handle;
    const count = await eventCount();
    await expect(ledger.assert('bad', { subject: 'user' })).rejects.toMatchObject({
      issues: expect.arrayContaining([expect.objectContaining({ path: 'relation' }), expect.objectContaining({ path: 'value' })]),
    });
    await expect(ledger.assert('bad', { subject: 'user', relation: 'birthday', value: 'May 3', validFrom: 'the day after tomorrow' })).rejects.toMatchObject({
      issues: [expect.objectContaining({ path: 'validFrom' })],
    });
    await expect(ledger.assert('bad', { text: 'x', colour: 'red' } as never)).rejects.toBeInstanceOf(InvalidInputError);
    await expect(ledger.assert('no spaces allowed', { text: 'x' })).rejects.toBeInstanceOf(InvalidInputError);
    expect(await eventCount()).toBe(count);
  });

  it("never lets a tenant touch or see another tenant's memory", async () => {
    const { ledger } = handle;
    const mine = await ledger.assert('acme', { subject: 'deploy window', relation: 'is', value: 'Tuesdays' });
    await expect(ledger.quarantine('globex', { memoryId: mine.memoryId })).rejects.toBeInstanceOf(UnknownMemoryError);
    await expect(ledger.memory('globex', { memoryId: mine.memoryId })).rejects.toBeInstanceOf(UnknownMemoryError);
    expect((await ledger.fact('globex', { subject: 'deploy window', relation: 'is' })).value).toBeNull();
    expect((await ledger.memory('acme', { memoryId: mine.memoryId })).status).toBe('active');
  });

  it('records a lower-authority conflicting value as overruled, never silently replacing the current one', async () => {
    const { ledger } = handle;
    await ledger.assert('auth', { subject: 'api', relation: 'version', value: '2', authority: 5, speaker: 'document' });
    tick();
    const low = await ledger.assert('auth', { subject: 'api', relation: 'version', value: '1', authority: 1 });
    expect(low.outcome).toBe('overruled');
    expect((await ledger.fact('auth', { subject: 'api', relation: 'version' })).value).toBe('2');
    expect((await ledger.memory('auth', { memoryId: low.memoryId })).status).toBe('overruled');
  });

  it('quarantines, restores and retypes while keeping the original type, and rolls a batch back', async () => {
    const { ledger } = handle;
    const m = await ledger.assert('life', { text: 'I am working on a Kafka consumer.', type: 'milestone' });
    await ledger.retype('life', { memoryId: m.memoryId, type: 'current_project', batch: 'triage-1' });
    await ledger.quarantine('life', { memoryId: m.memoryId, reason: 'noise', batch: 'triage-1' });
    expect(await ledger.memory('life', { memoryId: m.memoryId })).toMatchObject({
      status: 'quarantined',
      type: 'current_project',
      originalType: 'milestone',
    });
    const rollback = await ledger.rollback('life', { batch: 'triage-1' });
    expect(rollback.items.map((i) => i.result)).toEqual(['compensated', 'compensated']);
    expect(await ledger.memory('life', { memoryId: m.memoryId })).toMatchObject({ status: 'active', type: 'milestone' });
    await expect(ledger.rollback('life', { batch: 'no-such-batch' })).rejects.toBeInstanceOf(UnknownBatchError);
  });

  it('keeps a relation a set once it is one', async () => {
    const { ledger } = handle;
    await ledger.assert('set', { subject: 'lib', relation: 'supports', value: '3.11', cardinality: 'many' });
    await ledger.assert('set', { subject: 'lib', relation: 'supports', value: '3.12' });
    expect((await ledger.fact('set', { subject: 'lib', relation: 'supports' })).values).toEqual(['3.11', '3.12']);
    await expect(ledger.assert('set', { subject: 'lib', relation: 'supports', value: '3.13', cardinality: 'one' })).rejects.toBeInstanceOf(CardinalityConflictError);
  });

  const checkpoint = async (): Promise<number> => Number((await sql<{ p: number }>`SELECT prepare AS p FROM fl_checkpoints WHERE name = 'facts'`.execute(database.db)).rows[0]!.p);

  it('projects a write in its own transaction, and leaves it to the runner when the stream was not fully projected', async () => {
    const { ledger, runner, store } = handle;
    await runner.catchUp();
    const catchUp = jest.spyOn(runner, 'catchUp');
    try {
      // Inline: the checkpoint moves with the append, and the runner is not needed.
      const first = await ledger.assert('inline', { subject: 'team', relation: 'member', value: 'Ann', cardinality: 'many' });
      expect(catchUp).not.toHaveBeenCalled();
      expect(await checkpoint()).toBe(first.position);
      expect((await ledger.fact('inline', { subject: 'team', relation: 'member' })).values).toEqual(['Ann']);

      // Another writer appends to the same stream without projecting (as a batch import could).
      const stream = (await ledger.memory('inline', { memoryId: first.memoryId })).memoryId;
      const streamId = (await sql<{ s: string }>`SELECT stream_id AS s FROM fl_memories WHERE memory_id = ${stream}`.execute(database.db)).rows[0]!.s;
      const read = await store.readStream('inline', streamId);
      const data = { ...(read.events[0]!.data as Record<string, unknown>), memoryId: 'raw-bob', value: 'Bob', text: 'team member Bob' };
      const raw = await store.append({ tenant: 'inline', commandId: null, causationId: null, correlationId: null, batch: null, recordedAt: clock.now() }, [
        { streamId, expectedVersion: read.version, events: [{ eventId: '00000000-0000-4000-8000-000000000001', type: 'FactAsserted', data }] },
      ]);
      expect(raw.followUp).toBeNull();
      expect(await checkpoint()).toBe(first.position);

      // The next command on that stream sees the projection behind: nothing inline, the runner catches up.
      tick();
      const third = await ledger.assert('inline', { subject: 'team', relation: 'member', value: 'Cem' });
      expect(catchUp).toHaveBeenCalledTimes(1);
      expect(await checkpoint()).toBe(third.position);
      expect((await ledger.fact('inline', { subject: 'team', relation: 'member' })).values).toEqual(['Ann', 'Bob', 'Cem']);
      const open = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM fl_fact_history WHERE tenant = 'inline' AND upper_inf(tx)`.execute(database.db);
      expect(open.rows[0]!.n).toBe(3);
    } finally {
      catchUp.mockRestore();
    }
  });
});
