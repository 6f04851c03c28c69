/**
 * The ledger's use cases with the log in the in-memory store (InMemoryEventStore) and the read
 * models in PostgreSQL, as with a log kept outside the database (KurrentDB): no inline projection,
 * so every write is projected by the runner before it returns. Everything goes through the ledger's
 * API and the port; nothing reads a table of the log.
 */
import { CardinalityConflictError, CommandIdReusedError, InvalidInputError, ManualClock, UnknownMemoryError } from '@factledger/domain';
import { InMemoryEventStore, LOG_START } from '@factledger/store';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { type LedgerHandle, ledgerOn } from './create-ledger';
import { MessageIngestor } from './ingest/message-ingestor';

describe.each(testBackends())('Ledger with its log in memory, read models on %s', (backend) => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  let log: InMemoryEventStore;
  const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));
  const tick = () => clock.advance(1000);
  const logLength = async () => (await log.readAll(LOG_START, 1_000_000)).length;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    log = new InMemoryEventStore();
    handle = ledgerOn(database, { clock, store: log });
  });
  afterAll(() => database.close());

  it('runs on a store without an inline projection', () => {
    expect(handle.store.capabilities).toMatchObject({ inlineProjection: false, logInDatabase: false });
  });

  it('supersedes by key, answers as of any valid and known time, and keeps the whole history', async () => {
    const { ledger } = handle;
    const first = await ledger.assert('h', { subject: 'payment service', relation: 'port', value: '8000', validFrom: '2026-01-05' });
    tick();
    const known = clock.now().toISOString();
    tick();
    const second = await ledger.assert('h', { subject: 'Payment  Service', relation: 'PORT', value: '8080', validFrom: '2026-02-01' });
    expect([first.outcome, second.outcome]).toEqual(['created', 'superseded']);
    // Its own write, read back at once: the write returned after the runner had projected it.
    expect((await ledger.fact('h', { subject: 'payment service', relation: 'port' })).value).toBe('8080');
    expect((await ledger.fact('h', { subject: 'payment service', relation: 'port', validAt: '2026-01-20' })).value).toBe('8000');
    expect((await ledger.fact('h', { subject: 'payment service', relation: 'port', knownAt: known })).value).toBe('8000');
    const history = await ledger.history('h', { subject: 'payment service', relation: 'port' });
    expect(history.entries.map((e) => [e.value, e.openedBy.event, e.closedBy?.event ?? null])).toEqual([
      ['8000', 'FactAsserted', 'FactSuperseded'],
      ['8000', 'FactSuperseded', null],
      ['8080', 'FactAsserted', null],
    ]);
    expect(history.entries.map((e) => e.openedBy.position)).toEqual([first.position, second.position - 1, second.position]);
  });

  it('lets one of many concurrent writers to a key decide against each state: the others decide again', async () => {
    const { ledger } = handle;
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((v, i) => ledger.assert('race', { subject: 'leader', relation: 'is', value: v, validFrom: `2026-03-0${i + 1}` })));
    expect(new Set(results.map((r) => r.position)).size).toBe(4);
    expect((await ledger.fact('race', { subject: 'leader', relation: 'is' })).value).toBe('d');
    expect((await ledger.fact('race', { subject: 'leader', relation: 'is', validAt: '2026-03-02T12:00:00Z' })).value).toBe('b');
    const current = (await ledger.history('race', { subject: 'leader', relation: 'is' })).entries.filter((e) => e.closedBy === null && e.validTo === null);
    expect(current.map((e) => e.value)).toEqual(['d']);
  });

  it('appends a retried command once, and refuses another command under its id and bad input without appending anything', async () => {
    const { ledger } = handle;
    const first = await ledger.assert('idem', { text: 'I like green tea.', commandId: 'msg-1' });
    const length = await logLength();
    expect(await ledgerOn(database, { clock, store: log }).ledger.assert('idem', { text: 'I like green tea.', commandId: 'msg-1' })).toMatchObject({ replayed: true, position: first.position });
    await expect(ledger.assert('idem', { text: 'I like black tea.', commandId: 'msg-1' })).rejects.toBeInstanceOf(CommandIdReusedError);
    await expect(ledger.assert('idem', { subject: 'user' })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(ledger.assert('no spaces allowed', { text: 'x' })).rejects.toBeInstanceOf(InvalidInputError);
    expect(await logLength()).toBe(length);
  });

  it('keeps tenants apart, and a set a set', async () => {
    const { ledger } = handle;
    const mine = await ledger.assert('acme', { subject: 'deploy window', relation: 'is', value: 'Tuesdays' });
    await expect(ledger.quarantine('globex', { memoryId: mine.memoryId })).rejects.toBeInstanceOf(UnknownMemoryError);
    expect((await ledger.fact('globex', { subject: 'deploy window', relation: 'is' })).value).toBeNull();
    await ledger.assert('acme', { subject: 'lib', relation: 'supports', value: '3.11', cardinality: 'many' });
    await ledger.assert('acme', { subject: 'lib', relation: 'supports', value: '3.12' });
    expect((await ledger.fact('acme', { subject: 'lib', relation: 'supports' })).values).toEqual(['3.11', '3.12']);
    await expect(ledger.assert('acme', { subject: 'lib', relation: 'supports', value: '3.13', cardinality: 'one' })).rejects.toBeInstanceOf(CardinalityConflictError);
  });

  it('retypes and quarantines in a batch, and rolls the batch back', async () => {
    const { ledger } = handle;
    const m = await ledger.assert('life', { text: 'I am working on a Kafka consumer.', type: 'milestone' });
    await ledger.retype('life', { memoryId: m.memoryId, type: 'current_project', batch: 'triage-1' });
    await ledger.quarantine('life', { memoryId: m.memoryId, reason: 'noise', batch: 'triage-1' });
    expect(await ledger.memory('life', { memoryId: m.memoryId })).toMatchObject({ status: 'quarantined', type: 'current_project', originalType: 'milestone' });
    const rollback = await ledger.rollback('life', { batch: 'triage-1' });
    expect(rollback.items.map((i) => i.result)).toEqual(['compensated', 'compensated']);
    expect(await ledger.memory('life', { memoryId: m.memoryId })).toMatchObject({ status: 'active', type: 'milestone' });
  });

  it('ingests messages and retires a memory a later message changed in other words, in one append', async () => {
    const ingestor = new MessageIngestor({ ledger: handle.ledger, store: handle.store, clock });
    clock.advance(60_000);
    const before = await ingestor.ingest('chat', { text: 'We build our services with Gradle.' });
    clock.advance(60_000);
    const after = await ingestor.ingest('chat', { text: 'We switched from Gradle to Bazel last month.' });
    expect(after.resolved).toMatchObject({ retired: 1 });
    expect((await handle.ledger.memory('chat', { memoryId: before.stored[0]! })).status).toBe('retired');
    expect((await handle.ledger.memory('chat', { memoryId: after.stored[0]! })).status).toBe('active');
    // The new memory, the retraction and the record: one atomic append, consecutive positions ending at the record.
    const appended = (await log.readAll(LOG_START, 1_000_000)).filter((e) => e.tenant === 'chat' && e.globalPosition > before.position);
    expect(appended.map((e) => e.type)).toEqual(['FactAsserted', 'FactRetracted', 'MessageIngested']);
    expect(appended.at(-1)!.globalPosition).toBe(after.position);
  });

  // Both found by the reliability suite's crash cells (bench/reliability).
  it('records an answer citing a memory whose write was acknowledged but not projected yet (workers elsewhere)', async () => {
    // A server whose projections run in another process: its writes are not projected by it.
    const server = ledgerOn(database, { clock, store: log, passive: true, waitTimeoutMs: 1000 });
    const worker = ledgerOn(database, { clock, store: log });
    const written = await server.ledger.assert('lag', { subject: 'api', relation: 'port', value: '8080' });
    expect(await server.reader.memory('lag', written.memoryId)).toBeNull();
    const later = new Promise((resolve) => setTimeout(resolve, 100)).then(() => worker.runner.catchUp());
    const recorded = await server.answers.record('lag', { answerId: 'lag-1', text: 'The API listens on 8080.', cites: [written.memoryId] });
    await later;
    expect(recorded).toMatchObject({ answerId: 'lag-1', changed: true });
    // An id nobody wrote is unknown once the read models are at the log's head (until then the
    // answer is that they lag, 503, not that the memory does not exist).
    await expect(server.answers.record('lag', { text: 'x', cites: ['no-such-memory'] })).rejects.toMatchObject({ code: 'projection_lag' });
    await worker.runner.catchUp();
    await expect(server.answers.record('lag', { text: 'x', cites: ['no-such-memory'] })).rejects.toMatchObject({ code: 'unknown_memory' });
  });

  it('answers a retried answer command with its first result, not a refusal', async () => {
    const cited = await handle.ledger.assert('retry', { subject: 'api', relation: 'port', value: '8080' });
    const input = { answerId: 'retry-1', commandId: 'answer-cmd-1', text: 'The API listens on 8080.', cites: [cited.memoryId] };
    const first = await handle.answers.record('retry', input);
    const count = await logLength();
    expect(await handle.answers.record('retry', input)).toEqual({ answerId: 'retry-1', position: first.position, changed: false });
    expect(await logLength()).toBe(count);
    // Another command for the same answer is still refused.
    await expect(handle.answers.record('retry', { ...input, commandId: 'answer-cmd-2' })).rejects.toMatchObject({ code: 'illegal_lifecycle' });
  });
});
