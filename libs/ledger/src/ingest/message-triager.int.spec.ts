/**
 * The model-backed triager against a local server that speaks the OpenAI chat-completions
 * protocol with scripted replies (no model runs here): what it is sent, and how its verdict
 * steers what the ingest stores.
 */
import { ManualClock } from '@factledger/domain';
import { LlmBadResponseError } from '@factledger/llm';
import { type ScriptedChatServer, startScriptedChatServer, createTestDatabase, type TestDatabase } from '@factledger/testing';
import { sql } from 'kysely';
import { type LedgerHandle, ledgerOn } from '../create-ledger';
import { loadConfig } from '../ledger.config';
import { MessageIngestor } from './message-ingestor';
import { LlmTriager } from './message-triager';

describe('LlmTriager (scripted chat-completions server, PGlite)', () => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  let chat: ScriptedChatServer;
  let ingestor: MessageIngestor;
  let reply = '';
  const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    handle = ledgerOn(database, { clock });
    chat = await startScriptedChatServer(() => reply);
    ingestor = new MessageIngestor({ ledger: handle.ledger, store: handle.store, clock, triager: new LlmTriager(chat.model) });
  });
  afterAll(async () => {
    await chat.close();
    await database.close();
  });

  const events = async (): Promise<number> => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_events`.execute(database.db)).rows[0]!.n);

  it('asks at temperature 0 for a JSON verdict and records who triaged', async () => {
    reply = '{"kind":"inform","topic":"home","reason":"a move"}';
    const r = await ingestor.ingest('t', { text: 'I moved to Daejeon last week.' });
    expect(chat.sent.at(-1)).toMatchObject({ temperature: 0, response_format: { type: 'json_object' } });
    expect(chat.sent.at(-1)!.messages[1]!.content).toBe('I moved to Daejeon last week.');
    expect(r).toMatchObject({ kind: 'inform', topic: 'home', stored: [expect.any(String)] });
    expect(r.triage[0]).toContain('llm:scripted');
  });

  it('stores nothing when the model says the message asks, whatever the rules would extract', async () => {
    reply = '{"kind":"ask","topic":"home"}';
    const r = await ingestor.ingest('t', { text: 'I live in Busan, right' });
    expect(r).toMatchObject({ kind: 'ask', stored: [], candidates: [] });
  });

  it('refuses a reply that is not the verdict asked for, and appends nothing', async () => {
    const before = await events();
    reply = '{"kind":"maybe"}';
    await expect(ingestor.ingest('t', { text: 'My email is a@b.example' })).rejects.toBeInstanceOf(LlmBadResponseError);
    expect(await events()).toBe(before);
  });

  it('is configured only together with a language model', () => {
    expect(() => loadConfig({ FACTLEDGER_TRIAGE: 'llm' })).toThrow(/FACTLEDGER_LLM_URL/);
    expect(loadConfig({ FACTLEDGER_TRIAGE: 'llm', FACTLEDGER_LLM_URL: 'http://127.0.0.1:1', FACTLEDGER_LLM_MODEL: 'm' }).triage).toBe('llm');
  });
});
