/**
 * The MCP server over streamable HTTP at /mcp, driven by the SDK's own Client against the real
 * server with API keys required, on both backends: the tools are listed; remember, a superseding
 * remember and recall (the old value absent), as-of recall, forget and restore, verify on a stale
 * claim, record_answer, explain, resources; a read-only key refused a write as a tool error; a key
 * of another tenant gets nothing; malformed arguments on every tool are tool errors that change
 * nothing.
 */
import type { RecallHandle } from '@factledger/recall';
import { type TestDatabase, testBackends } from '@factledger/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../test/test-server';
const TOOLS = ['confirm', 'correct', 'explain', 'fact', 'forget', 'history', 'recall', 'record_answer', 'remember', 'restore', 'verify'];

describe.each(testBackends())('MCP over streamable HTTP on %s', (backend) => {
  let server: TestServer;
  let database: TestDatabase;
  let base: string;
  let recall: RecallHandle;
  const secrets: Record<string, string> = {};
  const clients: Client[] = [];

  beforeAll(async () => {
    server = await startTestServer(backend, {
      config: { auth: 'required', rateLimit: 0 },
      startRecall: true,
      prepare: async (handle) => {
        for (const [name, tenant, scopes] of [
          ['writer', 'acme', 'read,write'],
          ['reader', 'acme', 'read'],
          ['other', 'beta', 'read,write'],
        ] as const) {
          secrets[name] = (await handle.keys.create({ tenant, scopes, name })).secret;
        }
      },
    });
    ({ database, base, recall } = server);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await server?.close();
  });

  async function connect(key: string, query = ''): Promise<Client> {
    const client = new Client({ name: 'factledger-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp${query}`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    clients.push(client);
    return client;
  }
  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };
  const text = (r: { content: { text: string }[] }) => r.content.map((c) => c.text).join('\n');
  const events = async () => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_events`.execute(database.db)).rows[0]!.n);

  it('lists its tools, each described for a model with an input and an output schema', async () => {
    const client = await connect(secrets.writer!);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(80);
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
    }
    expect((tools.find((t) => t.name === 'recall')!.inputSchema.properties as Record<string, unknown>).query).toBeDefined();
  });

  it('remembers, supersedes, recalls only the current value, and recalls the old one as of before', async () => {
    const client = await connect(secrets.writer!);
    const first = await call(client, 'remember', { subject: 'payment service', relation: 'listens on port', value: '8000', validFrom: '2026-01-05T00:00:00Z' });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ outcome: 'created', memoryId: expect.any(String) });
    const second = await call(client, 'remember', { subject: 'payment service', relation: 'listens on port', value: '8080', validFrom: '2026-02-01T00:00:00Z' });
    expect(second.structuredContent).toMatchObject({ outcome: 'superseded' });
    await recall.indexer.catchUp();
    const now = await call(client, 'recall', { query: 'Which port does the payment service listen on?' });
    expect(now.isError).toBeFalsy();
    expect(text(now)).toContain('8080');
    expect(text(now)).not.toContain('8000');
    expect(now.structuredContent.items.map((i: { memoryId: string }) => i.memoryId)).toContain(second.structuredContent.memoryId);
    const then = await call(client, 'recall', { query: 'Which port does the payment service listen on?', validAt: '2026-01-20T00:00:00Z' });
    expect(text(then)).toContain('8000');
    expect(text(then)).not.toContain('8080');
    const fact = await call(client, 'fact', { subject: 'payment service', relation: 'listens on port', validAt: '2026-01-20T00:00:00Z' });
    expect(fact.structuredContent).toMatchObject({ value: '8000' });
    const history = await call(client, 'history', { subject: 'payment service', relation: 'listens on port' });
    expect(history.structuredContent.entries.map((e: { value: string }) => e.value)).toEqual(expect.arrayContaining(['8000', '8080']));
    const explained = await call(client, 'explain', { traceId: now.structuredContent.traceId });
    expect(explained.structuredContent).toHaveProperty('pool');

    // A raw message goes through the whole write path.
    const said = await call(client, 'remember', { text: 'I moved to Daejeon last week.' });
    expect(said.structuredContent).toMatchObject({ kind: 'inform', stored: [expect.any(String)] });

    // A fact that hangs on another, by its key: the link is on record.
    const hung = await call(client, 'remember', { subject: 'payment service', relation: 'owner', value: 'Dana', dependsOn: [{ subject: 'payment service', relation: 'listens on port' }] });
    expect(hung.isError).toBeFalsy();
    expect((await server.handle.ledger.memory('acme', { memoryId: hung.structuredContent.memoryId })).dependsOn).toEqual([second.structuredContent.memoryId]);
    // What it hangs on changes: unconfirmed, and recall says so; the user says it still holds: confirmed.
    await call(client, 'remember', { subject: 'payment service', relation: 'listens on port', value: '9090' });
    await server.handle.cascade.catchUp();
    expect((await server.handle.ledger.memory('acme', { memoryId: hung.structuredContent.memoryId })).unconfirmed).not.toBeNull();
    const confirmed = await call(client, 'confirm', { memoryId: hung.structuredContent.memoryId, reason: 'Dana still owns it' });
    expect(confirmed.structuredContent).toMatchObject({ outcome: 'confirmed' });
    expect((await server.handle.ledger.memory('acme', { memoryId: hung.structuredContent.memoryId })).unconfirmed).toBeNull();
    await call(client, 'remember', { subject: 'payment service', relation: 'listens on port', value: '8080' });
  });

  it('forgets and restores a memory, and verifies a stale claim', async () => {
    const client = await connect(secrets.writer!);
    const old = await call(client, 'remember', { subject: 'user', relation: 'diet', value: 'vegetarian', validFrom: '2026-01-01T00:00:00Z' });
    await call(client, 'remember', { subject: 'user', relation: 'diet', value: 'vegan', validFrom: '2026-03-01T00:00:00Z' });
    const stale = await call(client, 'verify', { claims: [{ says: 'The user is vegetarian.', cites: old.structuredContent.memoryId }] });
    expect(stale.structuredContent.verdicts[0]).toMatchObject({ verdict: 'stale' });

    const note = await call(client, 'remember', { text: 'The office plant is watered on Fridays.' });
    const memoryId = note.structuredContent.stored[0] ?? note.structuredContent.candidates[0].memoryId;
    expect((await call(client, 'forget', { memoryId, reason: 'noise' })).isError).toBeFalsy();
    const resource = await client.readResource({ uri: `factledger://memories/${memoryId}` });
    expect(JSON.parse((resource.contents[0] as { text: string }).text)).toMatchObject({ memoryId, status: 'quarantined' });
    expect((await call(client, 'restore', { memoryId })).isError).toBeFalsy();
    const back = await client.readResource({ uri: `factledger://memories/${memoryId}` });
    expect(JSON.parse((back.contents[0] as { text: string }).text)).toMatchObject({ status: 'active' });
    const answered = await call(client, 'record_answer', { question: 'Diet?', text: 'Vegan.', cites: [old.structuredContent.memoryId] });
    expect(answered.structuredContent).toMatchObject({ answerId: expect.any(String) });
  });

  it('refuses a write with a read-only key as a tool error, and shows another tenant nothing', async () => {
    const reader = await connect(secrets.reader!);
    const before = await events();
    const refused = await call(reader, 'remember', { subject: 'user', relation: 'pet', value: 'cat' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^forbidden: .*write/);
    expect(await events()).toBe(before);
    expect((await call(reader, 'fact', { subject: 'payment service', relation: 'listens on port' })).structuredContent).toMatchObject({ value: '8080' });

    // beta's key sees beta only: acme's fact is not there, and naming acme is refused outright.
    const other = await connect(secrets.other!);
    expect((await call(other, 'fact', { subject: 'payment service', relation: 'listens on port' })).structuredContent).toMatchObject({ value: null });
    const acme = await fetch(`${base}/mcp?tenant=acme`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${secrets.other}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(acme.status).toBe(404);
    expect(await acme.json()).toEqual({ error: 'not_found', message: 'nothing here for this API key' });
    const none = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(none.status).toBe(401);
  });

  it('answers malformed arguments on every tool with a tool error, changing nothing', async () => {
    const client = await connect(secrets.writer!);
    const before = await events();
    const bad: Record<string, Record<string, unknown>[]> = {
      remember: [{}, { subject: 'x' }, { text: '' }, { text: 'a\u0000b' }, { text: 'hi', scope: { a: 'b' } }, { subject: 1, relation: 'r', value: 'v' }],
      correct: [{}, { subject: 'x', relation: 'y' }],
      recall: [{}, { query: '' }, { query: 'x', budgetTokens: 'lots' }, { query: 'x', validAt: 'yesterday-ish' }],
      fact: [{}, { subject: 'x' }, { subject: 'x', relation: 'y', validAt: 'not a date' }],
      history: [{}, { relation: 'y' }],
      forget: [{}, { memoryId: '' }, { memoryId: 'no-such-memory' }],
      restore: [{}, { memoryId: 'no-such-memory' }],
      confirm: [{}, { memoryId: 'no-such-memory' }, { memoryId: 'no-such-memory', reason: 7 }],
      record_answer: [{}, { text: 'x', cites: 'not-a-list' }, { text: 'x', cites: ['no-such-memory'] }],
      verify: [{}, { claims: 'x' }, { claims: [{}] }],
      explain: [{}, { traceId: 'not-a-trace' }],
    };
    expect(Object.keys(bad).sort()).toEqual(TOOLS);
    for (const [name, list] of Object.entries(bad)) {
      for (const args of list) {
        const r = await call(client, name, args);
        if (!r.isError) throw new Error(`${name} ${JSON.stringify(args)} was not refused: ${text(r)}`);
        expect(text(r).length).toBeGreaterThan(5);
      }
    }
    expect(await events()).toBe(before);
    // The server is still there.
    expect((await call(client, 'fact', { subject: 'payment service', relation: 'listens on port' })).isError).toBeFalsy();
  });
});
