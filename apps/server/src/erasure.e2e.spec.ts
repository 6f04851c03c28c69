/**
 * Erasure end to end, over HTTP, on both backends: a fact with two versions kept under a subject,
 * a message whose statement became a memory, an answer that cited it, a recall trace that showed
 * it and the embeddings recall made of it. After `POST /erasures` none of their words is left in
 * any row of any table (and, natively, in a real `pg_dump`), the log keeps its shape and its hash
 * chain verifies, reads say "erased", the answer is reopened, and a rebuild of the read models
 * from the log brings nothing back. Memories nobody erased are untouched throughout.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { embeddedTexts, embeddingText, textHash } from '@factledger/embeddings';
import type { LedgerHandle } from '@factledger/ledger';
import type { RecallHandle } from '@factledger/recall';
import { type TestDatabase, testBackends } from '@factledger/testing';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../test/test-server';
/** Words only the erased memories hold (any case). */
const SECRETS = ['ingrid', 'zebulon', 'marigold', 'qarnelby'];
/** Words of memories nobody erases: they must still be there. */
const KEPT = ['keepme-1234', 'staging cluster restarts'];

describe.each(testBackends())('Erasure on %s', (backend) => {
  let server: TestServer;
  let database: TestDatabase;
  let base: string;
  let recall: RecallHandle;
  let handle: LedgerHandle;

  beforeAll(async () => {
    server = await startTestServer(backend);
    ({ database, base, recall, handle } = server);
  });
  afterAll(() => server?.close());

  async function http(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(base + path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }
  const post = (path: string, body?: unknown) => http('POST', `/v1/tenants/er${path}`, body);
  const get = (path: string) => http('GET', `/v1/tenants/er${path}`);

  /** Every row of every table of the database, as text: what a dump of its data would hold. */
  async function everyRow(): Promise<string> {
    const tables = (await sql<{ t: string }>`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`.execute(database.db)).rows.map((r) => r.t);
    const parts: string[] = [];
    for (const t of tables) {
      const rows = await sql<{ r: string }>`SELECT x::text AS r FROM ${sql.table(t)} x`.execute(database.db);
      parts.push(`-- ${t}`, ...rows.rows.map((r) => r.r));
    }
    return parts.join('\n').toLowerCase();
  }

  /** A real pg_dump of the native database (data and schema), lower-cased. */
  async function pgDump(): Promise<string> {
    const { stdout } = await promisify(execFile)('pg_dump', ['--no-owner', database.url!], { maxBuffer: 256 * 1024 * 1024 });
    return stdout.toLowerCase();
  }

  const found = (text: string, words: string[]) => words.filter((w) => text.includes(w));

  it('leaves no word of the erased memories anywhere, keeps the log verifiable, and reopens the answer that cited them', async () => {
    // What an agent remembers: a fact with two versions under a subject, a statement from a message, and others nobody erases.
    const v1 = await post('/memories', { subject: 'Ingrid', relation: 'locker code', value: 'Zebulon-4471', source: 'front desk' });
    const v2 = await post('/memories', { subject: 'Ingrid', relation: 'locker code', value: 'Marigold-8812' });
    expect(v2.body.outcome).toBe('superseded');
    const bob = await post('/memories', { subject: 'Bob', relation: 'locker code', value: 'Keepme-1234' });
    await post('/memories', { text: 'The staging cluster restarts every Sunday.' });
    const message = await post('/messages', { text: 'I moved to Qarnelby last week.', messageId: 'm-qar' });
    expect(message.status).toBe(201);
    const moved = message.body.stored[0] as string;
    const answer = await post('/answers', { question: "What is Ingrid's locker code?", text: 'It is Marigold-8812.', cites: [v2.body.memoryId, bob.body.memoryId] });
    expect(answer.status).toBe(201);
    await recall.indexer.catchUp();
    const context = await post('/context', { query: "What is Ingrid's locker code?", budgetTokens: 300 });
    expect(context.body.text.toLowerCase()).toContain('marigold-8812');
    await recall.recall.traces.flush();
    const embedded = (await sql<{ type: string; text: string }>`SELECT type, text FROM fl_memories WHERE tenant = 'er' AND memory_id = ${v2.body.memoryId}`.execute(database.db)).rows[0]!;
    const cached = async () =>
      Number(
        (await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_embedding_cache WHERE text_sha256 = ${textHash(embeddingText(embedded.type, embedded.text))}`.execute(database.db)).rows[0]!.n,
      );
    expect(await cached()).toBe(1);
    expect(found(await everyRow(), SECRETS)).toEqual(SECRETS); // the check below can fail
    const before = (await sql<{ position: string; type: string; stream: string }>`SELECT global_position AS position, type, stream_id AS stream FROM fl_events ORDER BY 1`.execute(database.db)).rows;

    // A subject, then one memory by id.
    const bySubject = await post('/erasures', { subject: ' ingrid ' });
    expect(bySubject.status).toBe(201);
    expect(bySubject.body).toMatchObject({ target: 'subject', memoryIds: expect.arrayContaining([v1.body.memoryId, v2.body.memoryId]), answers: [answer.body.answerId], alreadyErased: false });
    expect(bySubject.body.memoryIds).toHaveLength(2);
    const byId = await post('/erasures', { memoryId: moved });
    expect(byId.body).toMatchObject({ target: 'memory', memoryIds: [moved], messages: 1, events: expect.any(Number) });
    expect((await post('/erasures', { memoryId: moved })).body).toMatchObject({ alreadyErased: true, erasureId: byId.body.erasureId, memoryIds: [] });

    // Nowhere: not in the log, the read models, the recall index, its stem counts, the traces, the message record or the answer.
    const rows = await everyRow();
    expect(found(rows, SECRETS)).toEqual([]);
    expect(found(rows, KEPT)).toEqual(KEPT);
    expect(await cached()).toBe(0);
    if (backend === 'postgres') {
      const dump = await pgDump();
      expect(found(dump, SECRETS)).toEqual([]);
      expect(found(dump, KEPT)).toEqual(KEPT);
    }

    // The log keeps its shape: every position, type and stream, plus the erasures' own events; the chain verifies.
    const after = (
      await sql<{ position: string; type: string; stream: string; actor: string | null }>`SELECT global_position AS position, type, stream_id AS stream, actor FROM fl_events ORDER BY 1`.execute(
        database.db,
      )
    ).rows;
    expect(after.slice(0, before.length).map(({ position, type, stream }) => ({ position, type, stream }))).toEqual(before);
    expect(
      after
        .slice(before.length)
        .map((r) => r.type)
        .sort(),
    ).toEqual(['AnswerReopened', 'ErasureRecorded', 'ErasureRecorded', 'MemoryErased', 'MemoryErased', 'MemoryErased']);
    expect(await handle.store.verify()).toMatchObject({ ok: true, events: after.length });

    // Reads say it was erased; the answer lost its words and waits for review; the rest reads as before.
    for (const id of [v1.body.memoryId, v2.body.memoryId, moved]) {
      const read = await get(`/memories/${id}`);
      expect(read.status).toBe(410);
      expect(read.body).toMatchObject({ error: 'memory_erased', erased: { erasureId: expect.any(String), erasedAt: expect.any(String) } });
      expect((await get(`/memories/${id}/history`)).status).toBe(410);
    }
    expect((await get(`/memories/${bob.body.memoryId}`)).body).toMatchObject({ value: 'Keepme-1234', status: 'active' });
    expect((await get(`/facts?subject=Ingrid&relation=locker%20code`)).body).toMatchObject({ value: null, versions: [] });
    const reopened = await get(`/answers/${answer.body.answerId}`);
    expect(reopened.body).toMatchObject({
      status: 'reopened',
      question: '',
      text: '',
      reopened: { memoryId: v2.body.memoryId, reason: 'the cited memory was erased', cause: { event: 'MemoryErased' } },
    });
    expect(reopened.body.citations).toEqual([
      expect.objectContaining({ memoryId: v2.body.memoryId, text: '', value: null, erased: true, now: { status: 'erased', supersededBy: null } }),
      expect.objectContaining({ memoryId: bob.body.memoryId, value: 'Keepme-1234' }),
    ]);
    const record = await get('/messages/m-qar');
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({ messageId: 'm-qar', erased: byId.body.erasureId, stored: [moved] });
    expect(JSON.stringify(record.body.candidates).toLowerCase()).not.toContain('qarnelby');
    const recalled = await post('/context', { query: "What is Ingrid's locker code?", budgetTokens: 300 });
    expect(recalled.body.items.map((i: { memoryId: string }) => i.memoryId)).not.toContain(v2.body.memoryId);

    // The same fact can be told again afterwards: it starts a new history.
    const again = await post('/memories', { subject: 'Ingrid', relation: 'locker code', value: 'Fresh-0001' });
    expect(again.body).toMatchObject({ outcome: 'created' });
    expect((await get(`/facts?subject=Ingrid&relation=locker%20code&minPosition=${again.body.position}`)).body.versions).toEqual([expect.objectContaining({ value: 'Fresh-0001' })]);

    // Rebuilt from the log, the read models bring nothing back.
    await handle.runner.rebuild('facts');
    await handle.runner.rebuild('answers');
    expect((await get(`/memories/${v2.body.memoryId}`)).status).toBe(410);
    expect((await get(`/answers/${answer.body.answerId}`)).body).toMatchObject({ text: '', citations: [expect.objectContaining({ erased: true }), expect.anything()] });
    // (Ingrid's name is back: the new fact carries it.)
    expect(
      found(
        await everyRow(),
        SECRETS.filter((w) => w !== 'ingrid'),
      ),
    ).toEqual([]);
    expect(found(await everyRow(), ['fresh-0001', ...KEPT])).toEqual(['fresh-0001', ...KEPT]);
  });

  it("takes a long memory's passages with it: their vectors and their embedding cache entries", async () => {
    const text = 'Tobiah: I keep the spare key under the blue flowerpot by the shed. Nobody else in the house knows where it is hidden.';
    const story = await post('/memories', { text, type: 'episode' });
    await recall.indexer.catchUp();
    const texts = embeddedTexts('episode', text);
    expect(texts.length).toBeGreaterThanOrEqual(3); // the whole and two passages
    const passages = async () => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_recall_passages WHERE memory_id = ${story.body.memoryId}`.execute(database.db)).rows[0]!.n);
    const cached = async () => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_embedding_cache WHERE text_sha256 = ANY (${texts.map(textHash)})`.execute(database.db)).rows[0]!.n);
    expect(await passages()).toBe(texts.length - 1);
    expect(await cached()).toBe(texts.length);
    expect((await post('/erasures', { memoryId: story.body.memoryId })).status).toBe(201);
    expect(await passages()).toBe(0);
    expect(await cached()).toBe(0);
  });

  it('erases a whole tenant and nothing of another; refuses a bad target without changing anything', async () => {
    for (const tenant of ['whole', 'neighbour']) {
      await http('POST', `/v1/tenants/${tenant}/memories`, { subject: 'user', relation: 'pet', value: `Wobbleton-${tenant}` });
      await http('POST', `/v1/tenants/${tenant}/messages`, { text: `I moved to Frostvik-${tenant} last week.` });
    }
    const head = async () => Number((await sql<{ h: string }>`SELECT max(global_position) AS h FROM fl_events`.execute(database.db)).rows[0]!.h);
    const at = await head();
    for (const bad of [{}, { memoryId: 'x', all: true }, { all: false }, { subject: '' }, { memoryId: 'nope' }, { everything: true }]) {
      const reply = await http('POST', '/v1/tenants/whole/erasures', bad);
      expect([400, 404]).toContain(reply.status);
    }
    expect(await head()).toBe(at);
    const all = await http('POST', '/v1/tenants/whole/erasures', { all: true });
    expect(all.body).toMatchObject({ target: 'all', messages: 1 });
    expect(all.body.memoryIds.length).toBeGreaterThanOrEqual(2);
    const rows = await everyRow();
    expect(found(rows, ['wobbleton-whole', 'frostvik-whole'])).toEqual([]);
    expect(found(rows, ['wobbleton-neighbour', 'frostvik-neighbour'])).toEqual(['wobbleton-neighbour', 'frostvik-neighbour']);
    expect((await http('GET', '/v1/tenants/whole/memories')).body).toEqual([]);
    expect(await handle.store.verify()).toMatchObject({ ok: true });
    expect((await http('POST', '/v1/tenants/whole/erasures', { all: true })).body).toMatchObject({ erasureId: null, memoryIds: [] });
  });
});
