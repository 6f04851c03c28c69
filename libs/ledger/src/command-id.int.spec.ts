/**
 * A command id is bound to the command it first named: the same write with the same input (ids
 * that only trace it aside) replays, anything else under the id is refused with
 * CommandIdReusedError and appends nothing. With the log in the database (the store's fl_commands,
 * inline projection) and in memory (InMemoryEventStore, the runner projects).
 */
import { CommandIdReusedError, ManualClock } from '@factledger/domain';
import { type EventStore, InMemoryEventStore, LOG_START } from '@factledger/store';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { type LedgerHandle, ledgerOn } from './create-ledger';
import { MessageIngestor } from './ingest/message-ingestor';

const logs = testBackends().flatMap((backend) => [[backend, 'in the database'] as const, [backend, 'in memory'] as const]);

describe.each(logs)('command ids on %s, the log %s', (backend, where) => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  let memoryLog: EventStore | undefined;
  const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));
  /** Another process on the same log and read models, which has seen nothing of this one's writes. */
  const another = () => ledgerOn(database, { clock, ...(memoryLog ? { store: memoryLog } : {}) });
  const logLength = async (tenant: string) => (await handle.store.readAll(LOG_START, 1_000_000)).filter((e) => e.tenant === tenant).length;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    memoryLog = where === 'in memory' ? new InMemoryEventStore() : undefined;
    handle = another();
  });
  afterAll(() => database.close());

  it('refuses another value, or another kind of write, under a command id an assert used, and writes nothing of it', async () => {
    const { ledger } = handle;
    const first = await ledger.assert('reuse', { subject: 'api', relation: 'port', value: '8000', commandId: 'c1' });
    const other = await ledger.assert('reuse', { subject: 'web', relation: 'port', value: '80' });
    const length = await logLength('reuse');

    await expect(ledger.assert('reuse', { subject: 'api', relation: 'port', value: '9000', commandId: 'c1' })).rejects.toBeInstanceOf(CommandIdReusedError);
    await expect(ledger.assert('reuse', { subject: 'api', relation: 'port', value: '9000', commandId: 'c1' })).rejects.toMatchObject({ code: 'command_id_reused', commandId: 'c1' });
    await expect(ledger.quarantine('reuse', { memoryId: other.memoryId, commandId: 'c1' })).rejects.toBeInstanceOf(CommandIdReusedError);
    await expect(ledger.retract('reuse', { memoryId: first.memoryId, commandId: 'c1' })).rejects.toBeInstanceOf(CommandIdReusedError);
    await expect(ledger.writeMany('reuse', [{ retype: { memoryId: other.memoryId, type: 'config' } }], { commandId: 'c1' })).rejects.toBeInstanceOf(CommandIdReusedError);

    // A write that would append nothing (the memory is quarantined already) is refused as well: the id is taken.
    await ledger.quarantine('reuse', { memoryId: other.memoryId });
    await expect(ledger.quarantine('reuse', { memoryId: other.memoryId, commandId: 'c1' })).rejects.toBeInstanceOf(CommandIdReusedError);
    await ledger.restore('reuse', { memoryId: other.memoryId });
    const afterNoOp = await logLength('reuse');
    expect(afterNoOp).toBe(length + 2);
    // An answer under the id, and an answer's id reused for another answer.
    await expect(handle.answers.record('reuse', { question: 'Which port?', text: 'Port 8000.', cites: [first.memoryId], commandId: 'c1' })).rejects.toBeInstanceOf(CommandIdReusedError);
    const answered = await handle.answers.record('reuse', { answerId: 'a1', question: 'Which port?', text: 'Port 8000.', cites: [first.memoryId], commandId: 'a-c1' });
    expect(await another().answers.record('reuse', { answerId: 'a1', question: 'Which port?', text: 'Port 8000.', cites: [first.memoryId], commandId: 'a-c1' })).toMatchObject({
      position: answered.position,
      changed: false,
    });
    await expect(handle.answers.record('reuse', { answerId: 'a2', question: 'Which port?', text: 'Port 9000.', cites: [first.memoryId], commandId: 'a-c1' })).rejects.toBeInstanceOf(
      CommandIdReusedError,
    );
    await expect(handle.answers.review('reuse', { answerId: 'a1', commandId: 'a-c1' })).rejects.toBeInstanceOf(CommandIdReusedError);
    expect(await logLength('reuse')).toBe(afterNoOp + 1);
    expect((await ledger.fact('reuse', { subject: 'api', relation: 'port' })).value).toBe('8000');
    expect(await ledger.memory('reuse', { memoryId: first.memoryId })).toMatchObject({ value: '8000', status: 'active' });
    expect(await ledger.memory('reuse', { memoryId: other.memoryId })).toMatchObject({ status: 'active', type: 'fact' });
  });

  // A retry reaches the store's claim when its write appends: from a process that has not seen the
  // first attempt (a reply lost to a crash). One that has decides it is done and appends nothing.
  it('replays the same assert under its command id: the first memory and position, replayed from a fresh process', async () => {
    const input = { subject: 'cache', relation: 'ttl', value: '60', commandId: 'c-retry' };
    const first = await handle.ledger.assert('retry', input);
    expect(first).toMatchObject({ outcome: 'created', replayed: false });
    const length = await logLength('retry');
    expect(await handle.ledger.assert('retry', input)).toMatchObject({ memoryId: first.memoryId, position: first.position });
    expect(await another().ledger.assert('retry', input)).toMatchObject({ memoryId: first.memoryId, position: first.position, replayed: true });
    // The same command however it is spelled (defaults given, keys in another order), traced by other ids.
    const fresh = another();
    const respelled = await fresh.ledger.assert('retry', {
      causationId: 'a retry',
      correlationId: 'another request',
      speaker: 'user',
      authority: 0,
      value: '60 ',
      relation: 'ttl',
      subject: 'cache',
      commandId: 'c-retry',
    });
    expect(respelled).toMatchObject({ memoryId: first.memoryId, position: first.position, replayed: true });
    expect(await logLength('retry')).toBe(length);
    expect((await fresh.ledger.fact('retry', { subject: 'cache', relation: 'ttl' })).value).toBe('60');
  });

  it('binds lifecycle writes, writeMany and rollback to their commands as well', async () => {
    const { ledger } = handle;
    const a = await ledger.assert('life', { subject: 'db', relation: 'host', value: 'alpha' });
    const b = await ledger.assert('life', { subject: 'db', relation: 'user', value: 'admin' });
    const quarantined = await ledger.quarantine('life', { memoryId: a.memoryId, reason: 'stale', commandId: 'q1', batch: 'cleanup' });
    const length = await logLength('life');
    expect(await ledger.quarantine('life', { memoryId: a.memoryId, reason: 'stale', commandId: 'q1', batch: 'cleanup' })).toMatchObject({ position: quarantined.position });
    await expect(ledger.quarantine('life', { memoryId: b.memoryId, reason: 'stale', commandId: 'q1', batch: 'cleanup' })).rejects.toBeInstanceOf(CommandIdReusedError);
    await expect(ledger.restore('life', { memoryId: a.memoryId, commandId: 'q1' })).rejects.toBeInstanceOf(CommandIdReusedError);
    expect(await logLength('life')).toBe(length);
    expect((await ledger.memory('life', { memoryId: b.memoryId })).status).toBe('active');

    const ops = [{ assert: { subject: 'db', relation: 'port', value: '5432' } }, { retype: { memoryId: b.memoryId, type: 'config' } }];
    const many = await ledger.writeMany('life', ops, { commandId: 'w1' });
    expect(await another().ledger.writeMany('life', ops, { commandId: 'w1', correlationId: 'again' })).toMatchObject({ replayed: true, position: many.position });
    await expect(another().ledger.writeMany('life', [ops[0]!, { retype: { memoryId: b.memoryId, type: 'secret' } }], { commandId: 'w1' })).rejects.toBeInstanceOf(CommandIdReusedError);
    await expect(another().ledger.writeMany('life', ops, { commandId: 'w1', batch: 'another label' })).rejects.toBeInstanceOf(CommandIdReusedError);
    expect((await ledger.memory('life', { memoryId: b.memoryId })).type).toBe('config');

    // A rollback under an id a quarantine used is refused, and the quarantine stays.
    await expect(ledger.rollback('life', { batch: 'cleanup', commandId: 'q1' })).rejects.toBeInstanceOf(CommandIdReusedError);
    expect((await ledger.memory('life', { memoryId: a.memoryId })).status).toBe('quarantined');
    const rolled = await ledger.rollback('life', { batch: 'cleanup', commandId: 'r1' });
    expect((await ledger.memory('life', { memoryId: a.memoryId, minPosition: rolled.position })).status).toBe('active');
  });

  it('refuses a message sent again under its messageId with other words, and replays the same message', async () => {
    const ingestor = new MessageIngestor({ ledger: handle.ledger, store: handle.store, clock });
    const first = await ingestor.ingest('msg', { text: 'I moved to Daejeon last week.', messageId: 'm-1' });
    const length = await logLength('msg');
    await expect(ingestor.ingest('msg', { text: 'I moved to Busan last week.', messageId: 'm-1' })).rejects.toBeInstanceOf(CommandIdReusedError);
    await expect(ingestor.ingest('msg', { text: 'I moved to Daejeon last week.', messageId: 'm-1', speaker: 'assistant' })).rejects.toBeInstanceOf(CommandIdReusedError);
    expect(await ingestor.ingest('msg', { text: 'I moved to Daejeon last week.', messageId: 'm-1', correlationId: 'retry' })).toMatchObject({
      replayed: true,
      position: first.position,
      stored: first.stored,
    });
    expect(await logLength('msg')).toBe(length);
  });
});
