/**
 * The model-backed extractor against a local server that speaks the OpenAI chat-completions
 * protocol with scripted replies (no model runs here): what it is sent (the statements, the
 * tenant's keys for reuse, temperature 0, JSON), how a reply that reuses a key supersedes, and a
 * reply that is not the JSON asked for refused with nothing appended.
 */
import { ManualClock } from '@factledger/domain';
import { LlmBadResponseError } from '@factledger/llm';
import { type ScriptedChatServer, startScriptedChatServer, createTestDatabase, type TestDatabase } from '@factledger/testing';
import { sql } from 'kysely';
import { type LedgerHandle, ledgerOn } from '../create-ledger';
import { loadConfig } from '../ledger.config';
import { LlmExtractor } from './message-extractor';
import { MessageIngestor } from './message-ingestor';

describe('LlmExtractor (scripted chat-completions server, PGlite)', () => {
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
    ingestor = new MessageIngestor({ ledger: handle.ledger, store: handle.store, clock, extractor: new LlmExtractor(chat.model) });
  });
  afterAll(async () => {
    await chat.close();
    await database.close();
  });

  const events = async (): Promise<number> => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_events`.execute(database.db)).rows[0]!.n);

  it('sends the statements at temperature 0 for JSON, and stores the facts of its reply with the sentence as said', async () => {
    reply = '{"facts":[{"subject":"user","relation":"commutes by","value":"scooter","sentence":"I ride a scooter to work."}]}';
    const r = await ingestor.ingest('t', { text: 'I ride a scooter to work.' });
    expect(chat.sent.at(-1)).toMatchObject({ temperature: 0, response_format: { type: 'json_object' } });
    expect(chat.sent.at(-1)!.messages[1]!.content).toBe('I ride a scooter to work.');
    expect(chat.sent.at(-1)!.messages[0]!.content).toContain('(none yet)');
    expect(r.candidates[0]).toMatchObject({
      memoryKind: 'fact',
      subject: 'user',
      relation: 'commutes by',
      value: 'scooter',
      text: 'I ride a scooter to work.',
      rule: 'llm:scripted: user / commutes by',
    });
  });

  it("offers the tenant's keys for reuse, and a reply that reuses one supersedes the old value", async () => {
    clock.advance(60_000);
    reply = '{"facts":[{"subject":"user","relation":"commutes by","value":"subway","sentence":"These days I take the subway."}]}';
    const r = await ingestor.ingest('t', { text: 'These days I take the subway.' });
    expect(chat.sent.at(-1)!.messages[0]!.content).toContain('- user / commutes by');
    expect(r.candidates[0]).toMatchObject({ relation: 'commutes by', value: 'subway', outcome: 'superseded' });
    expect((await handle.ledger.fact('t', { subject: 'user', relation: 'commutes by' })).value).toBe('subway');
  });

  it('refuses a reply that is not the JSON asked for, and appends nothing', async () => {
    const before = await events();
    reply = '{"facts":[{"subject":"user"}]}';
    await expect(ingestor.ingest('t', { text: 'My email is a@b.example' })).rejects.toBeInstanceOf(LlmBadResponseError);
    reply = 'not json';
    await expect(ingestor.ingest('t', { text: 'My email is a@b.example' })).rejects.toBeInstanceOf(LlmBadResponseError);
    expect(await events()).toBe(before);
  });

  it('keeps prose the rules would keep when the model finds no fact, and asks nothing of it for a question', async () => {
    reply = '{"facts":[]}';
    const r = await ingestor.ingest('t', { text: 'The weather was lovely on our walk.' });
    expect(r.candidates.map((c) => c.memoryKind)).toEqual(['prose']);
    const asked = chat.sent.length;
    await ingestor.ingest('t', { text: 'Where do I live?' });
    expect(chat.sent.length).toBe(asked);
  });

  it('is configured only together with a language model', () => {
    expect(() => loadConfig({ FACTLEDGER_EXTRACTION: 'llm' })).toThrow(/FACTLEDGER_LLM_URL/);
    expect(loadConfig({ FACTLEDGER_EXTRACTION: 'llm', FACTLEDGER_LLM_URL: 'http://127.0.0.1:1', FACTLEDGER_LLM_MODEL: 'm' }).extraction).toBe('llm');
  });
});
