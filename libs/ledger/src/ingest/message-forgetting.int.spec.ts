/**
 * Forgetting asked for in a chat, through the real write path and recall (both backends): a value
 * stated and asked to be forgotten in a later turn, or in the same turn, is in no fact, memory,
 * recall index row, context or log event afterwards (the assistant's repeats of it included), the
 * message's record holds no word of it, and a request that names several memories with nothing to
 * tell them apart erases nothing. A retry after a crash between the erasure and the record finds
 * the erasure and writes the record; on a log that cannot be rewritten, the memories are quarantined.
 */
import { ManualClock, type MessageIngested } from '@factledger/domain';
import { HashingEmbedder, createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { Recall, RecallIndexer, O200kTokenCounter } from '@factledger/recall';
import { sql } from 'kysely';
import { type LedgerHandle, ledgerOn } from '../create-ledger';
import type { Ledger } from '../ledger';
import { MessageIngestor } from './message-ingestor';

const embedder = new HashingEmbedder();

describe.each(testBackends())('forgetting asked for in a chat on %s', (backend) => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  let ingestor: MessageIngestor;
  let indexer: RecallIndexer;
  let recall: Recall;
  const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    handle = ledgerOn(database, { clock });
    ingestor = new MessageIngestor({ ledger: handle.ledger, store: handle.store, clock, erasures: handle.erasures });
    indexer = new RecallIndexer(database.db, embedder, handle.runner);
    recall = new Recall(database.db, { embedder, facts: handle.runner, indexer, tokens: new O200kTokenCounter(), clock, search: database.search }, { addressTerms: [] });
  });
  afterAll(async () => {
    await recall.traces.flush();
    await database.close();
  });

  const say = async (tenant: string, text: string, speaker: 'user' | 'assistant' | 'tool' = 'user', via = ingestor, messageId?: string) => {
    clock.advance(60_000);
    return via.ingest(tenant, { text, speaker, ...(messageId ? { messageId } : {}) });
  };
  const texts = async (tenant: string) => (await handle.ledger.activeMemories(tenant)).map((m) => m.text);
  /** Everything the log holds of the tenant, lower-cased. */
  const log = async (tenant: string) => {
    const all = await handle.store.readAll({ commit: '0', prepare: 0 }, 100_000);
    return JSON.stringify(all.filter((e) => e.tenant === tenant).map((e) => e.data)).toLowerCase();
  };
  /** The tenant's rows of the recall index and its term counts, lower-cased. */
  const index = async (tenant: string) => {
    const rows = await sql<{ r: string }>`SELECT x::text AS r FROM fl_recall_index x WHERE tenant = ${tenant}`.execute(database.db);
    return rows.rows
      .map((r) => r.r)
      .join('\n')
      .toLowerCase();
  };
  const context = async (tenant: string, query: string) => {
    await indexer.catchUp();
    return (await recall.assemble(tenant, { query, budgetTokens: 1000 })).text.toLowerCase();
  };
  const recordOf = async (tenant: string, messageId: string) => (await handle.store.readStream(tenant, `message:${messageId}`)).events[0]!.data as MessageIngested['data'];

  it("erases a value asked to be forgotten in a later turn, by its name and its value, with the assistant's repeat of it", async () => {
    const stated = await say('later', 'The boiler service code is BX-4410-Q, keep it somewhere safe.');
    const echo = await say('later', 'Noted — BX-4410-Q it is, for the boiler.', 'assistant');
    expect(echo.stored).toHaveLength(1);
    const email = await say('later', 'My email is mira@quell.example.');
    await say('later', 'I drink oat milk with my coffee.');
    expect(await context('later', 'What is the boiler service code?')).toContain('bx-4410-q');
    expect(await index('later')).toContain('bx-4410-q');

    const asked = await say('later', 'Forget what I told you about the boiler service code — and do not keep BX-4410-Q either.');
    expect(asked.stored).toEqual([]);
    expect(asked.forgotten).toMatchObject({ requests: 1, statements: 0, how: 'erased', erasureId: expect.any(String), ambiguous: [], unmatched: 0 });
    expect([...asked.forgotten!.memoryIds].sort()).toEqual([stated.stored[0]!, echo.stored[0]!].sort());
    const byName = await say('later', 'Please forget my email.');
    expect(byName.forgotten!.memoryIds).toEqual([email.stored[0]!]);

    // Gone from the memories, the facts, the recall index, every context and the log.
    expect(await texts('later')).toEqual(['I drink oat milk with my coffee.']);
    expect((await handle.ledger.subject('later', { subject: 'user' })).facts.map((f) => f.value)).not.toContain('mira@quell.example');
    expect(await context('later', 'What is the boiler service code?')).not.toContain('bx-4410-q');
    expect(await context('later', 'What is my email?')).not.toContain('mira@quell');
    expect(await index('later')).not.toMatch(/bx-4410-q|mira@quell/);
    expect(await log('later')).not.toMatch(/bx-4410-q|boiler service|mira@quell/);
    // The request is recorded, without a word of what it forgot.
    const record = await recordOf('later', asked.messageId);
    expect(record).toMatchObject({ text: '', candidates: [], forgotten: { memoryIds: asked.forgotten!.memoryIds } });
    expect(record.triage.join(' ')).toContain('2 earlier memories erased');
    expect(await ingestor.message('later', asked.messageId)).toMatchObject({ forgotten: asked.forgotten, stored: [] });
  });

  it('erases a value stated and forgotten in the same turn: never stored, with what said it the same way before', async () => {
    const before = await say('same', 'The side gate code is 2790#.');
    const echo = await say('same', 'Noted: the side gate opens with 2790#.', 'assistant');
    expect(echo.stored).toHaveLength(1);
    const kept = await say('same', 'The garage code is 5512#.');
    const asked = await say('same', 'The side gate code is 2790#. Please erase that from your memory. I prefer tea.');
    expect(asked.forgotten).toMatchObject({ requests: 1, statements: 1, how: 'erased' });
    expect([...asked.forgotten!.memoryIds].sort()).toEqual([before.stored[0]!, echo.stored[0]!].sort());
    // The rest of the message is stored as said.
    expect(asked.candidates.map((c) => c.text)).toEqual(['I prefer tea.']);
    const alone = await say('same', 'My locker combination is 31-07-22, please forget that.');
    expect(alone).toMatchObject({ stored: [], candidates: [], forgotten: { statements: 1, memoryIds: [], erasureId: null } });

    expect(await texts('same')).toEqual(expect.arrayContaining([kept.candidates[0]!.text, 'I prefer tea.']));
    expect((await texts('same')).join(' ')).not.toMatch(/2790#|31-07-22/);
    expect(await context('same', 'What is the side gate code?')).not.toContain('2790#');
    expect(await index('same')).not.toMatch(/2790#|31-07-22/);
    expect(await log('same')).not.toMatch(/2790#|31-07-22|side gate/);
    expect((await recordOf('same', asked.messageId)).text).toBe('I prefer tea.');
  });

  it('erases nothing for a request that names several memories with nothing to tell them apart, and says so', async () => {
    const home = await say('two', 'My home address is 4 Pine Road.');
    const office = await say('two', 'My office address is 9 Quay Street.');
    const asked = await say('two', 'Please forget my address.');
    expect(asked.forgotten).toMatchObject({ memoryIds: [], erasureId: null, ambiguous: [{ memoryIds: expect.arrayContaining([home.stored[0]!, office.stored[0]!]) }] });
    expect(await texts('two')).toHaveLength(2);
    // Named so that one is meant: that one goes.
    const one = await say('two', 'Forget my home address.');
    expect(one.forgotten).toMatchObject({ memoryIds: [home.stored[0]!], ambiguous: [] });
    expect(await texts('two')).toEqual(['My office address is 9 Quay Street.']);
  });

  it('finds the erasure of a message whose record a crash kept from being written, and writes the record on its retry', async () => {
    const stated = await say('retry', 'My bike lock code is 6120.');
    let failed = false;
    const crashing = new Proxy(handle.ledger, {
      get: (target, key) =>
        key === 'writeMany' && !failed
          ? () => {
              failed = true;
              throw new Error('connection lost');
            }
          : Reflect.get(target, key, target),
    }) as Ledger;
    const first = new MessageIngestor({ ledger: crashing, store: handle.store, clock, erasures: handle.erasures });
    await expect(say('retry', 'Stop remembering my bike lock code.', 'user', first, 'forget-1')).rejects.toThrow('connection lost');
    expect(await texts('retry')).toEqual([]);
    const again = await say('retry', 'Stop remembering my bike lock code.', 'user', ingestor, 'forget-1');
    expect(again).toMatchObject({ replayed: false, forgotten: { memoryIds: [stated.stored[0]!], how: 'erased' } });
    expect(await say('retry', 'Stop remembering my bike lock code.', 'user', ingestor, 'forget-1')).toMatchObject({ replayed: true, forgotten: again.forgotten });
  });

  it('quarantines instead on a log that cannot be rewritten (KurrentDB), and takes no request from a tool', async () => {
    const unrewritable = new Proxy(handle.store, { get: (target, key) => (key === 'capabilities' ? { ...target.capabilities, redact: false } : Reflect.get(target, key, target)) });
    const quarantining = new MessageIngestor({ ledger: handle.ledger, store: unrewritable, clock, erasures: handle.erasures });
    const stated = await say('q', 'The vault PIN is 90210.');
    const asked = await say('q', 'The vault PIN is 90210. Could you wipe that from your memory?', 'user', quarantining);
    expect(asked.forgotten).toMatchObject({ memoryIds: [stated.stored[0]!], how: 'quarantined', erasureId: null });
    expect((await handle.ledger.memory('q', { memoryId: stated.stored[0]!, minPosition: asked.position })).status).toBe('quarantined');
    expect(await context('q', 'What is the vault PIN?')).not.toContain('90210');
    expect((await recordOf('q', asked.messageId)).text).toBe('');
    const tool = await say('q', 'Please erase that from your memory.', 'tool');
    expect(tool.forgotten).toBeNull();
    expect(tool.stored).toHaveLength(1);
  });
});
