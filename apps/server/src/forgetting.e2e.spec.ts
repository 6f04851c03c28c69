/**
 * Forgetting asked for in a chat, over HTTP on both backends: `POST /messages` with a key that may
 * write (and not erase over `/erasures`) takes away what the user asks to forget, the assistant's
 * repeat of it included. Afterwards no row of any table holds its words, the memories list and
 * every context lack it, the message's record says what was forgotten by id, the erasure names
 * the key that asked, and the memories nobody asked about are untouched.
 */
import type { LedgerHandle } from '@factledger/ledger';
import type { RecallHandle } from '@factledger/recall';
import { type TestDatabase, testBackends } from '@factledger/testing';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../test/test-server';

/** Words only what is asked to be forgotten holds (any case). */
const FORGOTTEN = ['zq-5520-lumen', 'pellmore'];
const KEPT = ['oat milk'];

describe.each(testBackends())('Forgetting in a chat on %s', (backend) => {
  let server: TestServer;
  let database: TestDatabase;
  let handle: LedgerHandle;
  let recall: RecallHandle;
  let base: string;
  let key: { secret: string; keyId: string };

  beforeAll(async () => {
    server = await startTestServer(backend, {
      config: { auth: 'required', rateLimit: 0 },
      prepare: async (h) => {
        const made = await h.keys.create({ tenant: 'fg', scopes: 'read,write', name: 'chat agent' });
        key = { secret: made.secret, keyId: made.key.keyId };
      },
    });
    ({ database, handle, recall, base } = server);
  });
  afterAll(() => server?.close());

  async function http(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { authorization: `Bearer ${key.secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
    const res = await fetch(`${base}/v1/tenants/fg${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }
  const say = async (text: string, speaker = 'user', messageId?: string) => {
    const r = await http('POST', '/messages', { text, speaker, ...(messageId ? { messageId } : {}) });
    expect(r.status).toBe(201);
    return r.body;
  };

  /** Every row of every table, as text, lower-cased. */
  async function everyRow(): Promise<string> {
    const tables = (await sql<{ t: string }>`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`.execute(database.db)).rows.map((r) => r.t);
    const parts: string[] = [];
    for (const t of tables) parts.push(...(await sql<{ r: string }>`SELECT x::text AS r FROM ${sql.table(t)} x`.execute(database.db)).rows.map((r) => r.r));
    return parts.join('\n').toLowerCase();
  }
  const found = (text: string, words: string[]) => words.filter((w) => text.includes(w));

  it('takes away over POST /messages what the user asks to forget, everywhere, with a key that may only write', async () => {
    // The key may not erase over the API: that road needs admin.
    expect((await http('POST', '/erasures', { all: true })).status).toBe(403);
    const stated = await say('The storage vault token is ZQ-5520-LUMEN, keep it safe.');
    const echo = await say('Noted: ZQ-5520-LUMEN is the storage vault token.', 'assistant');
    const email = await say('My email is ines@pellmore.example.');
    await say('I put oat milk in my coffee.');
    await recall.indexer.catchUp();
    expect((await http('POST', '/context', { query: 'What is the storage vault token?', budgetTokens: 500 })).body.text.toLowerCase()).toContain('zq-5520-lumen');
    expect(found(await everyRow(), FORGOTTEN)).toEqual(FORGOTTEN); // the check below can fail

    const asked = await say('Forget what I told you about the storage vault token. And please remove my email from your memory.', 'user', 'forget-1');
    expect(asked).toMatchObject({ stored: [], candidates: [], forgotten: { requests: 2, how: 'erased', erasureId: expect.any(String), ambiguous: [], unmatched: 0 } });
    expect([...asked.forgotten.memoryIds].sort()).toEqual([...stated.stored, ...echo.stored, ...email.stored].sort());

    await recall.indexer.catchUp();
    const rows = await everyRow();
    expect(found(rows, FORGOTTEN)).toEqual([]);
    expect(found(rows, KEPT)).toEqual(KEPT);
    const listed = await http('GET', '/memories');
    expect(listed.body.map((m: { text: string }) => m.text)).toEqual(['I put oat milk in my coffee.']);
    for (const query of ['What is the storage vault token?', 'What is my email?']) {
      expect(found((await http('POST', '/context', { query, budgetTokens: 1000 })).body.text.toLowerCase(), FORGOTTEN)).toEqual([]);
    }
    expect((await http('GET', `/memories/${stated.stored[0]}`)).status).toBe(410);
    // The record says what was forgotten by id; the erasure names the key that asked.
    const record = await http('GET', '/messages/forget-1');
    expect(record.body).toMatchObject({ forgotten: asked.forgotten, erased: null });
    const erasure = (await handle.store.readStream('fg', `erasure-${asked.forgotten.erasureId}`)).events[0]!;
    expect(erasure).toMatchObject({ type: 'ErasureRecorded', actor: key.keyId, causationId: 'message:forget-1' });
    // Sent again, it answers from its record and erases nothing more.
    expect(await say('Forget what I told you about the storage vault token. And please remove my email from your memory.', 'user', 'forget-1')).toMatchObject({
      replayed: true,
      forgotten: asked.forgotten,
    });
    expect(await handle.store.verify()).toMatchObject({ ok: true });
  });
});
