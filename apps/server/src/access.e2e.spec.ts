/**
 * API keys end to end, beside the authorization matrix (access-matrix.e2e.spec.ts, every route
 * under every spelling and key): the admin routes doing their work for an admin key; the key's id
 * in the log and never its secret; the open routes; a write-only key learning nothing from a
 * write's reply; the rate limit, which counts refused requests too; and a server that must not
 * start without keys.
 */
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { ManualClock, systemClock } from '@factledger/domain';
import { UseLiteEmbedder } from '@factledger/embeddings';
import { type LedgerHandle, ledgerOn } from '@factledger/ledger';
import { type RecallHandle, type RecallSettings, recallOn } from '@factledger/recall';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { sql } from 'kysely';
import { createServer } from './create-server';

const embedder = new UseLiteEmbedder();

describe.each(testBackends())('API keys on %s', (backend) => {
  let database: TestDatabase;
  let app: INestApplication;
  let base: string;
  let recall: RecallHandle;
  let handle: LedgerHandle;
  const secrets: Record<string, string> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    handle = ledgerOn(database);
    const make = async (name: string, tenant: string, scopes: string, expires?: string) => {
      const made = await handle.keys.create({ tenant, scopes, name, expires });
      secrets[name] = made.secret;
      ids[name] = made.key.keyId;
    };
    await make('writer', 'acme', 'read,write');
    await make('reader', 'acme', 'read');
    await make('writeonly', 'acme', 'write');
    await make('other', 'beta', 'read,write,admin');
    await make('operator', '*', 'read,write,admin');
    await make('revoked', 'acme', 'read,write');
    await handle.keys.revoke(ids.revoked!);
    // Made with a clock that then moves past its expiry.
    const clock = new ManualClock(new Date());
    const early = ledgerOn(database, { clock });
    const soon = await early.keys.create({ tenant: 'acme', scopes: 'read,write', name: 'expired', expires: new Date(Date.now() + 1000).toISOString() });
    secrets.expired = soon.secret;
    const settings: RecallSettings = { embeddings: 'use-lite', addressTerms: [], traceRetentionDays: 30, indexIntervalMs: 20 };
    recall = recallOn(database, handle.runner, systemClock, settings, embedder);
    app = await createServer({ handle, recall, config: { logLevel: 'silent', auth: 'required', rateLimit: 0 } });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    await new Promise((r) => setTimeout(r, 1100));
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  async function send(method: 'GET' | 'POST', path: string, key?: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
    const headers: Record<string, string> = {};
    if (key) headers.authorization = `Bearer ${key}`;
    if (method === 'POST') headers['content-type'] = 'application/json';
    const res = await fetch(base + path, { method, headers, body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  }
  it('answers 403 to a read-write key on the admin routes (erasure, batch rollback), and lets an admin key of the tenant erase and roll back', async () => {
    const contract = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, Record<string, { 'x-factledger-scope'?: string }>> };
    const admins = Object.entries(contract.paths).filter(([, methods]) => Object.values(methods).some((op) => op['x-factledger-scope'] === 'admin'));
    expect(admins.map(([path]) => path).sort()).toEqual(['/v1/tenants/{tenant}/batches/{batch}/rollback', '/v1/tenants/{tenant}/erasures']);
    const noted = await send('POST', '/v1/tenants/acme/memories', secrets.writer, { text: 'The lobby door opens at seven.' });
    const held = await send('POST', `/v1/tenants/acme/memories/${noted.body.memoryId}/quarantine`, secrets.writer, { reason: 'unsure', batch: 'door-review' });
    expect(held.status).toBe(200);
    expect(await send('POST', '/v1/tenants/acme/batches/door-review/rollback', secrets.writer, {})).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect((await send('GET', `/v1/tenants/acme/memories/${noted.body.memoryId}?minPosition=${held.body.position}`, secrets.reader)).body).toMatchObject({ status: 'quarantined' });
    expect(await send('POST', '/v1/tenants/acme/batches/door-review/rollback', secrets.operator, {})).toMatchObject({ status: 200, body: { batch: 'door-review' } });
    const kept = await send('POST', '/v1/tenants/acme/memories', secrets.writer, { subject: 'door', relation: 'code', value: '4242' });
    const refused = await send('POST', '/v1/tenants/acme/erasures', secrets.writer, { memoryId: kept.body.memoryId });
    expect(refused).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect((await send('GET', `/v1/tenants/acme/memories/${kept.body.memoryId}`, secrets.reader)).body).toMatchObject({ value: '4242' });
    const erased = await send('POST', '/v1/tenants/acme/erasures', secrets.operator, { memoryId: kept.body.memoryId });
    expect(erased).toMatchObject({ status: 201, body: { memoryIds: [kept.body.memoryId] } });
    const read = await send('GET', `/v1/tenants/acme/memories/${kept.body.memoryId}`, secrets.reader);
    expect(read).toMatchObject({ status: 410, body: { error: 'memory_erased', erased: { actor: ids.operator } } });
  });

  it("records the key's id, never its secret, on every event a request appends: history and the message record show it", async () => {
    const first = await send('POST', '/v1/tenants/acme/memories', secrets.writer, { subject: 'printer', relation: 'room', value: '204' });
    const second = await send('POST', '/v1/tenants/acme/memories', secrets.operator, { subject: 'printer', relation: 'room', value: '310' });
    expect([first.status, second.status]).toEqual([201, 201]);
    const history = await send('GET', `/v1/tenants/acme/history?subject=printer&relation=room&minPosition=${second.body.position}`, secrets.reader);
    expect(history.body.entries.map((e: any) => [e.value, e.openedBy.actor, e.closedBy?.actor ?? null])).toEqual(
      expect.arrayContaining([
        ['204', ids.writer, ids.operator],
        ['310', ids.operator, null],
      ]),
    );
    const message = await send('POST', '/v1/tenants/acme/messages', secrets.writer, { text: 'I moved to Daejeon last week.', messageId: 'keyed-1' });
    expect(message.body.actor).toBe(ids.writer);
    expect((await send('GET', '/v1/tenants/acme/messages/keyed-1', secrets.reader)).body.actor).toBe(ids.writer);
    const { rows } = await sql<{ actor: string | null }>`SELECT DISTINCT actor FROM fl_events`.execute(database.db);
    expect(rows.map((r) => r.actor)).toEqual(expect.arrayContaining([ids.writer, ids.operator]));
    // The secret part (after "flk_<id>_") is nowhere in the log.
    const everything = (await sql<{ all: string }>`SELECT string_agg(row_to_json(e)::text, '') AS all FROM fl_events e`.execute(database.db)).rows[0]!.all;
    for (const secret of Object.values(secrets)) expect(everything).not.toContain(secret.slice('flk_'.length + 12 + 1));
  });

  it("gives a write-only key no other memory's words in a write's reply, and judges HEAD as the read it is", async () => {
    const earlier = await send('POST', '/v1/tenants/acme/memories', secrets.writer, { text: 'The staging database password is kept in vault slot 4471.' });
    expect(earlier.status).toBe(201);
    // The same statement with another value: it restates the earlier one, and says so.
    const restating = await send('POST', '/v1/tenants/acme/memories', secrets.writeonly, { text: 'The staging database password is kept in vault slot 9902.' });
    expect(restating.status).toBe(201);
    expect(restating.body.restated).toEqual([expect.objectContaining({ memoryId: earlier.body.memoryId, action: 'replace', nextValue: expect.stringContaining('9902') })]);
    expect(JSON.stringify(restating.body)).not.toMatch(/4471/);
    for (const field of ['text', 'frame', 'earlierValue']) expect(restating.body.restated[0]).not.toHaveProperty(field);
    // The same write by a key that may read tells it all.
    const readable = await send('POST', '/v1/tenants/acme/memories', secrets.writer, { text: 'The staging database password is kept in vault slot 3318.' });
    expect(readable.body.restated[0]).toMatchObject({ text: expect.stringContaining('9902'), earlierValue: expect.stringContaining('9902') });
    // A message resolved against earlier memories: what it was compared with stays unsaid to a key that cannot read.
    await send('POST', '/v1/tenants/acme/messages', secrets.writer, { text: 'My email is dana.kim@oldmail.example.' });
    const moved = await send('POST', '/v1/tenants/acme/messages', secrets.writeonly, { text: 'I switched to a new email address: dana@newco.example.' });
    expect(moved.status).toBe(201);
    expect(JSON.stringify(moved.body)).not.toMatch(/oldmail/);
    // HEAD is a read: a write-only key is refused it, a read-only key gets it.
    const head = (secret: string) => fetch(`${base}/v1/tenants/acme/memories`, { method: 'HEAD', headers: { authorization: `Bearer ${secret}` } });
    expect((await head(secrets.writeonly!)).status).toBe(403);
    expect((await head(secrets.reader!)).status).toBe(200);
  });

  it('keeps /health and /openapi.json open, showing nothing of any tenant', async () => {
    const health = await send('GET', '/health');
    expect(health.status).toBe(200);
    expect(JSON.stringify(health.body)).not.toMatch(/acme|beta/);
    expect((await send('GET', '/openapi.json')).status).toBe(200);
  });
});

describe('API keys: start-up and rate limit', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
  });
  afterAll(async () => database.close());

  it('refuses to start when keys are required and none exists, and when it listens beyond loopback without one', async () => {
    const handle = ledgerOn(database);
    for (const config of [{ auth: 'required' as const }, { host: '0.0.0.0' }]) {
      const app = await createServer({ handle, config: { logLevel: 'silent', ...config } });
      await expect(app.init()).rejects.toThrow(/API keys are required .* but none exists/);
      await app.close().catch(() => undefined);
    }
  });

  /** A server allowing 3 requests a minute, with two read keys of `tenant`; `run` gets its address and their secrets. */
  const withLimit = async (tenant: string, run: (base: string, a: string, b: string) => Promise<void>): Promise<void> => {
    const handle = ledgerOn(database);
    const a = await handle.keys.create({ tenant, scopes: 'read' });
    const b = await handle.keys.create({ tenant, scopes: 'read' });
    const app = await createServer({ handle, config: { logLevel: 'silent', auth: 'required', rateLimit: 3 } });
    await app.listen(0, '127.0.0.1');
    try {
      await run(`http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`, a.secret, b.secret);
    } finally {
      await app.close();
    }
  };

  it('answers 429 with Retry-After once a key has used its requests for the minute, and counts each key apart', async () => {
    await withLimit('rl', async (base, a, b) => {
      const get = (secret: string) => fetch(`${base}/v1/tenants/rl/memories`, { headers: { authorization: `Bearer ${secret}` } });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await get(a)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await get(a);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await limited.json()).toMatchObject({ error: 'too_many_requests' });
      expect((await get(b)).status).toBe(200);
    });
  });

  it('counts /mcp against the same per-key limit, and unknown keys per client address', async () => {
    await withLimit('rl-mcp', async (base, a, b) => {
      const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'rate-test', version: '1.0.0' } } };
      const mcp = (secret: string) =>
        fetch(`${base}/mcp`, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify(initialize),
        });
      const statuses = [];
      for (let i = 0; i < 2; i++) statuses.push((await mcp(a)).status);
      // One count per key across both roads: the third request is a /v1 read.
      statuses.push((await fetch(`${base}/v1/tenants/rl-mcp/memories`, { headers: { authorization: `Bearer ${a}` } })).status);
      const limited = await mcp(a);
      statuses.push(limited.status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await mcp(b)).status).toBe(200);
      // A made-up key is counted by address: refused (401) until the limit, then 429.
      const unknown = [];
      for (let i = 0; i < 4; i++) unknown.push((await mcp('flk_nobody.nothing')).status);
      expect(unknown.slice(0, 3).every((status) => status !== 429 && status >= 400)).toBe(true);
      expect(unknown[3]).toBe(429);
    });
  });

  it('counts refused requests to /v1 too: guessed keys and no key are throttled by client address, every spelling alike', async () => {
    await withLimit('rl-guess', async (base, a) => {
      const guessed = (secret: string | null, path = '/v1/tenants/rl-guess/memories') => fetch(base + path, { headers: secret ? { authorization: `Bearer ${secret}` } : {} });
      const statuses = [];
      statuses.push((await guessed(`flk_${'a'.repeat(12)}_${'b'.repeat(43)}`)).status);
      statuses.push((await guessed(null, '/V1/tenants/rl-guess/memories')).status);
      statuses.push((await guessed('nope', '/no/such/route')).status);
      statuses.push((await guessed(null)).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      // The address's count is not the key's: a real key still gets through.
      expect((await guessed(a)).status).toBe(200);
    });
  });
});
