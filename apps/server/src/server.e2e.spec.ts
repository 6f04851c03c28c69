/**
 * The HTTP service end to end: a real server on a random port, Node's fetch, a fresh database
 * per backend, the ledger reached only through AppModule → FactLedgerModule.
 */
import type { LedgerHandle } from '@factledger/ledger';
import type { RecallHandle } from '@factledger/recall';
import { testBackends } from '@factledger/testing';
import type { z } from 'zod';
import { answerSchema, answerViewSchema, answerWriteResultSchema, verificationSchema } from '@factledger/ledger';
import { errorSchema } from './api.schemas';
import { startTestServer, type TestServer } from '../test/test-server';

interface Reply {
  status: number;
  body: any;
}

describe.each(testBackends())('HTTP server on %s', (backend) => {
  let server: TestServer;
  let base: string;
  let recall: RecallHandle;
  let handle: LedgerHandle;

  beforeAll(async () => {
    server = await startTestServer(backend);
    ({ base, recall, handle } = server);
  });

  afterAll(() => server?.close());

  async function http(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Reply> {
    const res = await fetch(base + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }
  const get = (path: string) => http('GET', path);
  const post = (path: string, body?: unknown) => http('POST', path, body);
  const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();

  async function assertFact(tenant: string, input: Record<string, unknown>): Promise<{ memoryId: string; position: number; outcome: string }> {
    const reply = await post(`/v1/tenants/${tenant}/memories`, input);
    expect(reply.status).toBe(201);
    return reply.body;
  }

  it('asserts a fact (201) and reads it back through /facts with minPosition', async () => {
    const reply = await post('/v1/tenants/acme/memories', { subject: 'api', relation: 'port', value: '8000', source: 'README.md' });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({ outcome: 'created', memoryId: expect.any(String), position: expect.any(Number), replayed: false });

    const fact = await get(`/v1/tenants/acme/facts?${q({ subject: 'api', relation: 'port', minPosition: reply.body.position })}`);
    expect(fact.status).toBe(200);
    expect(fact.body).toMatchObject({ subject: 'api', relation: 'port', value: '8000', values: ['8000'] });
    expect(fact.body.versions).toEqual([expect.objectContaining({ memoryId: reply.body.memoryId, source: 'README.md' })]);

    const memory = await get(`/v1/tenants/acme/memories/${reply.body.memoryId}?minPosition=${reply.body.position}`);
    expect(memory.status).toBe(200);
    expect(memory.body).toMatchObject({ memoryId: reply.body.memoryId, status: 'active', value: '8000' });
  });

  it('shows supersession in /facts, as of an earlier validAt, and in /history with the events that opened and closed each version', async () => {
    const old = await assertFact('super', { subject: 'svc', relation: 'port', value: '8000', validFrom: '2025-01-01' });
    const next = await assertFact('super', { subject: 'svc', relation: 'port', value: '8080', validFrom: '2025-06-01', causationId: 'ticket-42' });
    expect(next.outcome).toBe('superseded');

    const now = await get(`/v1/tenants/super/facts?${q({ subject: 'svc', relation: 'port', minPosition: next.position })}`);
    expect(now.body).toMatchObject({ value: '8080', values: ['8080'] });

    const asOf = await get(`/v1/tenants/super/facts?${q({ subject: 'svc', relation: 'port', validAt: '2025-03-01' })}`);
    expect(asOf.status).toBe(200);
    expect(asOf.body).toMatchObject({ value: '8000', validAt: '2025-03-01T00:00:00.000Z' });

    const history = await get(`/v1/tenants/super/history?${q({ subject: 'svc', relation: 'port' })}`);
    expect(history.status).toBe(200);
    // Ordered by the event that opened each row: the belief in 8000 (open-ended) was closed by the
    // supersession, which opened 8000 again with its valid period closed at 2025-06-01.
    expect(history.body.entries).toEqual([
      expect.objectContaining({
        memoryId: old.memoryId,
        value: '8000',
        validFrom: '2025-01-01T00:00:00.000Z',
        validTo: null,
        knownTo: expect.any(String),
        openedBy: { position: old.position, event: 'FactAsserted', actor: null, batch: null, causation: null },
        closedBy: { position: expect.any(Number), event: 'FactSuperseded', reason: null, batch: null, by: next.memoryId, actor: null, causation: 'ticket-42' },
      }),
      expect.objectContaining({
        memoryId: old.memoryId,
        value: '8000',
        validTo: '2025-06-01T00:00:00.000Z',
        knownTo: null,
        openedBy: { position: expect.any(Number), event: 'FactSuperseded', actor: null, batch: null, causation: 'ticket-42' },
        closedBy: null,
      }),
      expect.objectContaining({
        memoryId: next.memoryId,
        value: '8080',
        validFrom: '2025-06-01T00:00:00.000Z',
        validTo: null,
        openedBy: { position: next.position, event: 'FactAsserted', actor: null, batch: null, causation: 'ticket-42' },
        closedBy: null,
      }),
    ]);
    const [believed, superseded] = history.body.entries;
    expect(believed.closedBy.position).toBe(superseded.openedBy.position);
    expect(superseded.openedBy.position).toBeGreaterThan(old.position);
    expect(superseded.openedBy.position).toBeLessThanOrEqual(next.position);

    const subject = await get(`/v1/tenants/super/subjects/svc?${q({ validAt: '2025-03-01' })}`);
    expect(subject.status).toBe(200);
    expect(subject.body.facts).toEqual([expect.objectContaining({ relation: 'port', value: '8000' })]);
  });

  it('shows what a batch label covers, and answers 404 for a label nothing carries', async () => {
    const m = await assertFact('batched', { text: 'The staging VPN needs a hardware key.' });
    const q = await post(`/v1/tenants/batched/memories/${m.memoryId}/quarantine`, { reason: 'unverified', batch: 'vpn-review' });
    expect(q.status).toBe(200);
    const batch = await get(`/v1/tenants/batched/batches/vpn-review?minPosition=${q.body.position}`);
    expect(batch.status).toBe(200);
    expect(batch.body).toEqual({
      batch: 'vpn-review',
      events: [expect.objectContaining({ type: 'MemoryQuarantined', memoryId: m.memoryId, reason: 'unverified', position: q.body.position })],
      memories: [expect.objectContaining({ memoryId: m.memoryId, status: 'quarantined' })],
    });
    expect((await get('/v1/tenants/batched/batches/no-such-batch')).status).toBe(404);
    // Listed by status: out of the active list, in the quarantined one.
    expect((await get('/v1/tenants/batched/memories')).body.map((x: { memoryId: string }) => x.memoryId)).not.toContain(m.memoryId);
    const quarantined = await get('/v1/tenants/batched/memories?status=quarantined');
    expect(quarantined.body).toEqual([expect.objectContaining({ memoryId: m.memoryId, status: 'quarantined' })]);
    expect((await get('/v1/tenants/batched/memories?status=gone')).status).toBe(400);
    expect((await get('/v1/tenants/other/batches/vpn-review')).status).toBe(404);
  });

  it('answers the audit: what was believed at a moment, and what changed between two, as JSON', async () => {
    await assertFact('audited', { subject: 'gateway', relation: 'region', value: 'eu-west-1' });
    const between = new Date(Date.now() + 5);
    await new Promise((r) => setTimeout(r, 20));
    const next = await assertFact('audited', { subject: 'gateway', relation: 'region', value: 'eu-central-1', batch: 'region-move' });
    const after = new Date(Date.now() + 5).toISOString();
    await new Promise((r) => setTimeout(r, 10));

    const then = await get(`/v1/tenants/audited/audit?${q({ knownAt: between.toISOString(), minPosition: next.position })}`);
    expect(then.status).toBe(200);
    expect(then.body).toMatchObject({ subject: null, truncated: false, memories: [expect.objectContaining({ subject: 'gateway', relation: 'region', value: 'eu-west-1', kind: 'fact' })] });
    const now = await get(`/v1/tenants/audited/audit?${q({ subject: 'gateway' })}`);
    expect(now.body.memories.map((m: { value: string }) => m.value)).toEqual(['eu-central-1']);

    const diff = await get(`/v1/tenants/audited/audit/diff?${q({ from: between.toISOString(), to: after })}`);
    expect(diff.status).toBe(200);
    expect(diff.body.changes).toEqual([
      expect.objectContaining({
        subject: 'gateway',
        relation: 'region',
        before: [expect.objectContaining({ value: 'eu-west-1' })],
        after: [expect.objectContaining({ value: 'eu-central-1', memoryId: next.memoryId })],
        events: expect.arrayContaining([expect.objectContaining({ type: 'FactAsserted', memoryId: next.memoryId, batch: 'region-move', position: expect.any(Number) })]),
      }),
    ]);
    const backwards = await get(`/v1/tenants/audited/audit/diff?${q({ from: after, to: between.toISOString() })}`);
    expect(backwards.status).toBe(400);
    expect(backwards.body.issues).toEqual([expect.objectContaining({ path: 'to' })]);
    // Another tenant believed nothing of it.
    expect((await get(`/v1/tenants/not-audited/audit`)).body.memories).toEqual([]);
  });

  describe('a 400 names the field and changes nothing', () => {
    const tenant = 'strict';
    const key = q({ subject: 'db', relation: 'host' });

    async function expectRejected(body: unknown, path: string, message?: RegExp): Promise<void> {
      const reply = await post(`/v1/tenants/${tenant}/memories`, body);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ error: 'invalid_input', message: expect.any(String) });
      expect(reply.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path, ...(message ? { message: expect.stringMatching(message) } : {}) })]));
    }

    it('rejects a missing relation when a subject is given', async () => {
      await expectRejected({ subject: 'db', value: 'pg-1' }, 'relation');
    });

    it('rejects a validFrom that is not a date', async () => {
      await expectRejected({ subject: 'db', relation: 'host', value: 'pg-1', validFrom: 'the day after tomorrow' }, 'validFrom', /ISO 8601/);
    });

    it('rejects an unknown property, naming it', async () => {
      await expectRejected({ subject: 'db', relation: 'host', value: 'pg-1', colour: 'red' }, '', /colour/);
    });

    it('rejects a body that is not JSON', async () => {
      const reply = await post(`/v1/tenants/${tenant}/memories`, '{"subject": "db", ');
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ error: 'invalid_input', issues: [expect.objectContaining({ path: '' })] });
    });

    it('rejects a scope that is not JSON', async () => {
      for (const route of ['facts', 'history']) {
        const reply = await get(`/v1/tenants/${tenant}/${route}?${key}&scope=${encodeURIComponent('{env: prod')}`);
        expect(reply.status).toBe(400);
        expect(reply.body).toMatchObject({ error: 'invalid_input', issues: [expect.objectContaining({ path: 'scope' })] });
      }
    });

    it('rejects a tenant that is not a valid name', async () => {
      const reply = await get(`/v1/tenants/${encodeURIComponent('no tenant!')}/memories`);
      expect(reply.status).toBe(400);
      expect(reply.body.issues).toEqual([expect.objectContaining({ path: 'tenant' })]);
    });

    it('left nothing behind', async () => {
      expect((await get(`/v1/tenants/${tenant}/history?${key}`)).body.entries).toEqual([]);
      expect((await get(`/v1/tenants/${tenant}/facts?${key}`)).body).toMatchObject({ value: null, values: [] });
      expect((await get(`/v1/tenants/${tenant}/memories`)).body).toEqual([]);
    });
  });

  it("answers 404 for another tenant's memory, on reads and on lifecycle commands", async () => {
    const mine = await assertFact('tenant-a', { subject: 'user', relation: 'city', value: 'Lisbon' });
    const read = await get(`/v1/tenants/tenant-b/memories/${mine.memoryId}`);
    expect(read.status).toBe(404);
    expect(read.body).toMatchObject({ error: 'unknown_memory' });
    const quarantine = await post(`/v1/tenants/tenant-b/memories/${mine.memoryId}/quarantine`, { reason: 'not yours' });
    expect(quarantine.status).toBe(404);
    expect(quarantine.body).toMatchObject({ error: 'unknown_memory' });
    expect((await get(`/v1/tenants/tenant-a/memories/${mine.memoryId}`)).body.status).toBe('active');
    expect((await get('/v1/tenants/tenant-b/memories')).body).toEqual([]);
  });

  it('quarantines and restores a memory, visible on GET /memories/:id and in /facts', async () => {
    const m = await assertFact('life', { subject: 'user', relation: 'diet', value: 'vegan' });
    const path = `/v1/tenants/life/memories/${m.memoryId}`;

    const quarantined = await post(`${path}/quarantine`, { reason: 'role-play' });
    expect(quarantined.status).toBe(200);
    expect(quarantined.body).toMatchObject({ outcome: 'quarantined', memoryId: m.memoryId, replayed: false });
    expect((await get(`${path}?minPosition=${quarantined.body.position}`)).body.status).toBe('quarantined');
    expect((await get(`/v1/tenants/life/facts?${q({ subject: 'user', relation: 'diet' })}`)).body.value).toBeNull();
    expect((await get('/v1/tenants/life/memories')).body).toEqual([]);

    const restored = await post(`${path}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ outcome: 'restored' });
    expect((await get(path)).body.status).toBe('active');
    expect((await get(`/v1/tenants/life/facts?${q({ subject: 'user', relation: 'diet' })}`)).body.value).toBe('vegan');
  });

  it('confirms a memory marked unconfirmed once what it hung on changed: the mark is gone from GET /memories/:id; a bad body is a 400 naming the field', async () => {
    const lead = await assertFact('hang', { subject: 'support desk', relation: 'lead', value: 'Noor' });
    const rota = await post('/v1/tenants/hang/memories', { subject: 'weekend rota', relation: 'owner', value: 'Eli', dependsOn: [{ subject: 'support desk', relation: 'lead' }] });
    expect(rota.status).toBe(201);
    const path = `/v1/tenants/hang/memories/${rota.body.memoryId}`;
    expect((await get(path)).body).toMatchObject({ dependsOn: [lead.memoryId], unconfirmed: null });
    await assertFact('hang', { subject: 'support desk', relation: 'lead', value: 'Ravi' });
    await server.handle.cascade.catchUp();
    expect((await get(path)).body.unconfirmed).toMatchObject({ premise: lead.memoryId });
    expect((await post(`${path}/confirm`, { reason: 42 })).body).toMatchObject({ error: 'invalid_input', issues: [expect.objectContaining({ path: 'reason' })] });
    const confirmed = await post(`${path}/confirm`, { reason: 'Ravi kept the rota' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ outcome: 'confirmed', memoryId: rota.body.memoryId });
    expect((await get(`${path}?minPosition=${confirmed.body.position}`)).body.unconfirmed).toBeNull();
  });

  it('refuses (409 slot_taken, naming the holder) to restore a memory into the slot a version with the same start took meanwhile, and appends nothing', async () => {
    const key = { subject: 'payments', relation: 'region' };
    const m = await assertFact('slot', { ...key, value: 'eu-west', validFrom: '2026-03-01' });
    const path = `/v1/tenants/slot/memories/${m.memoryId}`;
    expect((await post(`${path}/quarantine`, { reason: 'unverified' })).status).toBe(200);
    const holder = await assertFact('slot', { ...key, value: 'eu-central', validFrom: '2026-03-01' });
    const history = `/v1/tenants/slot/history?${q({ ...key, minPosition: holder.position })}`;
    const before = (await get(history)).body;

    const refused = await post(`${path}/restore`, { reason: 'verified after all' });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'slot_taken', message: expect.stringContaining(`memory ${holder.memoryId} holds its slot`), heldBy: holder.memoryId });
    expect(errorSchema.parse(refused.body)).toEqual(refused.body);

    expect((await get(path)).body).toMatchObject({ status: 'quarantined', validTo: null });
    expect((await get(history)).body).toEqual(before);
    expect((await get(`/v1/tenants/slot/facts?${q({ ...key, validAt: '2026-03-01' })}`)).body).toMatchObject({ value: 'eu-central', values: ['eu-central'] });
  });

  it('retypes and retracts through the memory routes and by value', async () => {
    const m = await assertFact('lc', { text: 'We ship on Fridays', type: 'milestone' });
    const retyped = await post(`/v1/tenants/lc/memories/${m.memoryId}/retype`, { type: 'note' });
    expect(retyped).toMatchObject({ status: 200, body: { outcome: 'retyped' } });
    expect((await get(`/v1/tenants/lc/memories/${m.memoryId}`)).body).toMatchObject({ type: 'note', originalType: 'milestone' });
    expect((await post(`/v1/tenants/lc/memories/${m.memoryId}/retype`, {})).status).toBe(400);

    const retracted = await post(`/v1/tenants/lc/memories/${m.memoryId}/retract`, { reason: 'obsolete' });
    expect(retracted).toMatchObject({ status: 200, body: { outcome: 'retracted' } });

    await assertFact('lc', { subject: 'team', relation: 'lead', value: 'Ana' });
    const byValue = await post('/v1/tenants/lc/retractions', { subject: 'team', relation: 'lead', value: 'Ana' });
    expect(byValue).toMatchObject({ status: 200, body: { outcome: 'retracted' } });
    expect((await get(`/v1/tenants/lc/facts?${q({ subject: 'team', relation: 'lead' })}`)).body.value).toBeNull();
  });

  it('rolls back a batch of quarantines', async () => {
    const a = await assertFact('triage', { text: 'Milestone: opened the IDE', type: 'milestone' });
    const b = await assertFact('triage', { text: 'Milestone: said hello', type: 'milestone' });
    for (const m of [a, b]) {
      expect((await post(`/v1/tenants/triage/memories/${m.memoryId}/quarantine`, { batch: 'noise-1', reason: 'noise' })).status).toBe(200);
    }
    expect((await get('/v1/tenants/triage/memories?limit=10')).body).toEqual([]);

    const rollback = await post('/v1/tenants/triage/batches/noise-1/rollback', {});
    expect(rollback.status).toBe(200);
    expect(rollback.body).toMatchObject({ batch: 'noise-1', position: expect.any(Number) });
    expect(rollback.body.items).toHaveLength(2);
    expect(rollback.body.items.every((i: { result: string }) => i.result === 'compensated')).toBe(true);

    const active = await get(`/v1/tenants/triage/memories?${q({ limit: 10, minPosition: rollback.body.position })}`);
    expect(active.body.map((m: { memoryId: string }) => m.memoryId).sort()).toEqual([a.memoryId, b.memoryId].sort());
    expect((await get('/v1/tenants/triage/memories?limit=1')).body).toHaveLength(1);
    expect((await get('/v1/tenants/triage/memories?limit=zero')).status).toBe(400);

    const unknown = await post('/v1/tenants/triage/batches/never-used/rollback');
    expect(unknown).toMatchObject({ status: 404, body: { error: 'unknown_batch' } });
  });

  it('reports health', async () => {
    const health = await get('/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({
      status: 'ok',
      store: { ok: true, backend },
      migrations: { ok: true, pending: [] },
      projections: ['facts', 'answers'].map((name) => expect.objectContaining({ name, behindEvents: 0, lagMs: 0, checkpoint: expect.any(Object) })),
      recallIndex: { behindEvents: expect.any(Number), lagMs: expect.any(Number), checkpoint: expect.any(Number) },
    });
  });

  it('assembles a context over HTTP with the background indexer, and serves its trace', async () => {
    await assertFact('ctx', { subject: 'billing db', relation: 'host', value: 'db-03.internal', text: 'The billing database runs on db-03.internal.' });
    const moved = await assertFact('ctx', { subject: 'billing db', relation: 'host', value: 'db-07.internal', text: 'The billing database runs on db-07.internal.' });
    recall.start();
    try {
      for (let i = 0; i < 200 && (await recall.indexer.lag()).behindEvents > 0; i++) await new Promise((r) => setTimeout(r, 25));
    } finally {
      await recall.stop();
    }
    expect((await get('/health')).body.recallIndex.behindEvents).toBe(0);
    const reply = await post('/v1/tenants/ctx/context', { query: 'Which host does the billing database run on?', minPosition: moved.position, budgetTokens: 200 });
    expect(reply.status).toBe(200);
    expect(reply.body.text).toContain('db-07.internal');
    expect(reply.body.text).not.toContain('db-03.internal');
    expect(reply.body.items).toEqual([expect.objectContaining({ channel: 'detail', speaker: 'user' })]);
    expect(reply.body.tokens).toBeLessThanOrEqual(200);

    const trace = await get(`/v1/tenants/ctx/traces/${reply.body.traceId}`);
    expect(trace.status).toBe(200);
    expect(trace.body).toMatchObject({ id: reply.body.traceId, tenant: 'ctx', query: { message: 'Which host does the billing database run on?' } });
    expect(trace.body.survivors).toHaveLength(1);
    expect(await get(`/v1/tenants/other/traces/${reply.body.traceId}`)).toMatchObject({ status: 404, body: { error: 'unknown_trace' } });

    const bad = await post('/v1/tenants/ctx/context', { query: '', budgetTokens: 'lots' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((i: { path: string }) => i.path).sort()).toEqual(['budgetTokens', 'query']);
  });

  it('records an answer, reopens it through the saga when its citation is superseded, reviews it, verifies claims', async () => {
    const diet = await assertFact('ans', { subject: 'user', relation: 'diet', value: 'vegetarian' });
    // A body is what its OpenAPI schema says, no more (parsing drops unknown fields at any depth) and no less.
    const documented = (schema: z.ZodType, body: unknown) => expect(schema.parse(body)).toEqual(body);
    const answer = await post('/v1/tenants/ans/answers', { question: 'Dinner?', text: 'A vegetarian bibimbap.', cites: [diet.memoryId] });
    expect(answer.status).toBe(201);
    documented(answerWriteResultSchema, answer.body);
    expect(await post('/v1/tenants/ans/answers', { text: 'x', cites: ['no-such-memory'] })).toMatchObject({ status: 404, body: { error: 'unknown_memory' } });
    await assertFact('ans', { subject: 'user', relation: 'diet', value: 'vegan' });
    await handle.saga.catchUp();
    const open = await get('/v1/tenants/ans/answers');
    expect(open.body.map((a: { answerId: string }) => a.answerId)).toEqual([answer.body.answerId]);
    documented(answerSchema.array(), open.body);
    const one = await get(`/v1/tenants/ans/answers/${answer.body.answerId}`);
    expect(one.body).toMatchObject({ status: 'reopened', citations: [{ value: 'vegetarian', now: { status: 'retired' } }] });
    documented(answerViewSchema, one.body);
    const citing = await get(`/v1/tenants/ans/memories/${diet.memoryId}/answers`);
    expect(citing.body.map((a: { answerId: string }) => a.answerId)).toEqual([answer.body.answerId]);
    documented(answerSchema.array(), citing.body);
    const reviewed = await post(`/v1/tenants/ans/answers/${answer.body.answerId}/review`, {});
    expect(reviewed.body).toMatchObject({ changed: true });
    documented(answerWriteResultSchema, reviewed.body);
    expect((await get('/v1/tenants/ans/answers')).body).toEqual([]);
    expect(await get('/v1/tenants/ans/answers/nope')).toMatchObject({ status: 404, body: { error: 'unknown_answer' } });
    const verdicts = await post('/v1/tenants/ans/verifications', { claims: [{ cites: diet.memoryId, says: 'vegetarian', speaker: 'user' }, { says: 'I play the cello' }] });
    expect(verdicts.body.verdicts.map((v: { verdict: string }) => v.verdict)).toEqual(['stale', 'fabricated']);
    documented(verificationSchema, verdicts.body);
    expect((await post('/v1/tenants/ans/verifications', { claims: [] })).status).toBe(400);
    expect(await post('/v1/tenants/ans/answers/revisions', { answer: 'x' })).toMatchObject({ status: 501, body: { error: 'llm_not_configured' } });
  });

  it('supports a claim only with a memory that states its value, not with one that only shares its subject', async () => {
    const verdicts = async (claims: object[]) => {
      const reply = await post('/v1/tenants/claims/verifications', { claims });
      expect(reply.status).toBe(200);
      return reply.body.verdicts.map((v: { verdict: string; memory: { memoryId: string } | null }) => [v.verdict, v.memory?.memoryId ?? null]);
    };
    const notes = await assertFact('claims', { text: 'Notes about the staging database password.' });
    const manifest = await assertFact('claims', { text: 'The payment service port is set in the deploy manifest.' });
    expect(await verdicts([{ says: 'The staging database password is hunter2' }, { says: 'the payment port is 9999' }])).toEqual([
      ['fabricated', null],
      ['fabricated', null],
    ]);
    expect(
      await verdicts([
        { says: 'The staging database password is hunter2', cites: notes.memoryId },
        { says: 'the payment port is 9999', cites: manifest.memoryId },
      ]),
    ).toEqual([
      ['distorted', notes.memoryId],
      ['distorted', manifest.memoryId],
    ]);

    const port = await assertFact('claims', { subject: 'payment service', relation: 'port', value: '8443', text: 'The payment service listens on port 8443.' });
    const host = await assertFact('claims', { text: 'The staging database runs on db-07.internal.' });
    expect(await verdicts([{ says: 'the payment port is 9999' }, { says: 'The payment service port is 8443' }, { says: 'The staging database is hosted on db-07.internal', speaker: 'user' }])).toEqual(
      [
        ['fabricated', null],
        ['supported', port.memoryId],
        ['supported', host.memoryId],
      ],
    );
  });

  it('answers an unknown route with a JSON 404', async () => {
    expect(await get('/v1/nothing-here')).toMatchObject({ status: 404, body: { error: 'not_found' } });
  });

  describe('messages through triage, extraction and the admission gates', () => {
    const path = (tenant: string) => `/v1/tenants/${tenant}/messages`;

    it('stores what a statement says (201), readable through /facts and /memories/:id with minPosition', async () => {
      const reply = await post(path('inbox'), { text: 'I moved to Daejeon last week.' });
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({ messageId: expect.any(String), position: expect.any(Number), replayed: false, kind: 'inform', topic: 'home', speaker: 'user' });
      const [candidate] = reply.body.candidates;
      expect(reply.body.candidates).toHaveLength(1);
      expect(candidate).toMatchObject({ verdict: 'admitted', memoryKind: 'fact', relation: 'lives in', value: 'Daejeon', outcome: 'created', memoryId: expect.any(String) });
      expect(candidate.gates.length).toBeGreaterThan(0);
      expect(reply.body.stored).toEqual([candidate.memoryId]);

      const minPosition = reply.body.position;
      const fact = await get(`/v1/tenants/inbox/facts?${q({ subject: candidate.subject, relation: 'lives in', minPosition })}`);
      expect(fact.status).toBe(200);
      expect(fact.body).toMatchObject({ value: 'Daejeon', versions: [expect.objectContaining({ memoryId: candidate.memoryId, speaker: 'user' })] });
      const memory = await get(`/v1/tenants/inbox/memories/${candidate.memoryId}?${q({ minPosition })}`);
      expect(memory.status).toBe(200);
      expect(memory.body).toMatchObject({ status: 'active', value: 'Daejeon', source: `message:${reply.body.messageId}` });
    });

    it('shows a message under the day it was said in POST /context (its own `at`), not the day it came in', async () => {
      const reply = await post(path('imported'), { text: 'I adopted a greyhound called Pip.', at: '2026-11-20T19:00:00Z' });
      expect(reply.status).toBe(201);
      const memory = await get(`/v1/tenants/imported/memories/${reply.body.stored[0]}?${q({ minPosition: reply.body.position })}`);
      expect(memory.body).toMatchObject({ saidAt: '2026-11-20T19:00:00.000Z', recordedAt: expect.not.stringMatching(/^2026-11-20/) });
      recall.start();
      try {
        for (let i = 0; i < 200 && (await recall.indexer.lag()).behindEvents > 0; i++) await new Promise((r) => setTimeout(r, 25));
      } finally {
        await recall.stop();
      }
      const context = await post('/v1/tenants/imported/context', { query: 'What is my dog called?', minPosition: reply.body.position });
      expect(context.status).toBe(200);
      expect(context.body.text).toContain('Pip');
      expect(context.body.text).toMatch(/\[2026-11-20 user /);
      expect(context.body.text).not.toContain(new Date().toISOString().slice(0, 10));
      expect(context.body.items).toEqual([expect.objectContaining({ memoryId: reply.body.stored[0], saidAt: '2026-11-20T19:00:00.000Z' })]);
    });

    it('stores nothing for a question', async () => {
      const reply = await post(path('asking'), { text: 'Where do I live?' });
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({ kind: 'ask', candidates: [], stored: [] });
      expect((await get(`/v1/tenants/asking/memories?${q({ minPosition: reply.body.position })}`)).body).toEqual([]);
    });

    it('rejects stage directions with a reason, and stores nothing', async () => {
      const reply = await post(path('roleplay'), { text: '*smiles softly*' });
      expect(reply.status).toBe(201);
      expect(reply.body.stored).toEqual([]);
      expect(reply.body.candidates).toEqual([expect.objectContaining({ verdict: 'rejected', type: null, outcome: null, memoryId: null, reason: expect.stringMatching(/stage direction/) })]);
      expect((await get(`/v1/tenants/roleplay/memories?${q({ minPosition: reply.body.position })}`)).body).toEqual([]);
    });

    it("serves the stored record with its gates, and answers 404 for an unknown or another tenant's message", async () => {
      const ingested = await post(path('record'), { text: 'I moved to Daejeon last week.', messageId: 'chat-42.7' });
      expect(ingested.status).toBe(201);
      const record = await get(`${path('record')}/chat-42.7`);
      expect(record.status).toBe(200);
      expect(record.body).toMatchObject({ messageId: 'chat-42.7', position: ingested.body.position, kind: 'inform', triage: ingested.body.triage, stored: ingested.body.stored });
      expect(record.body.candidates).toEqual(ingested.body.candidates);
      expect(record.body.candidates[0].gates).toEqual(expect.arrayContaining([expect.objectContaining({ gate: 'role-play guard', passed: true, detail: expect.any(String) })]));

      expect(await get(`${path('other')}/chat-42.7`)).toMatchObject({ status: 404, body: { error: 'unknown_message' } });
      expect(await get(`${path('record')}/never-sent`)).toMatchObject({ status: 404, body: { error: 'unknown_message' } });
    });

    it('retries a messageId without storing anything twice', async () => {
      const input = { text: 'I moved to Daejeon last week.', messageId: 'retry-1' };
      const first = await post(path('retry'), input);
      const again = await post(path('retry'), input);
      expect(first.body.replayed).toBe(false);
      expect(again.status).toBe(201);
      expect(again.body).toMatchObject({ messageId: 'retry-1', replayed: true, position: first.body.position, stored: first.body.stored });
      const memories = await get(`/v1/tenants/retry/memories?${q({ minPosition: again.body.position })}`);
      expect(memories.body.map((m: { memoryId: string }) => m.memoryId)).toEqual(first.body.stored);
    });

    it('answers bad input with a 400 naming the field, and changes nothing', async () => {
      const cases: [unknown, string][] = [
        [{ speaker: 'user' }, 'text'],
        [{ text: 'I moved to Daejeon last week.', speaker: 'robot' }, 'speaker'],
        [{ text: '   ' }, 'text'],
        [{ text: 'I moved to Daejeon last week.', messageId: 'has spaces' }, 'messageId'],
        [{ text: 'I moved to Daejeon last week.', at: 'yesterday' }, 'at'],
      ];
      for (const [body, field] of cases) {
        const reply = await post(path('bad'), body);
        expect(reply.status).toBe(400);
        expect(reply.body).toMatchObject({ error: 'invalid_input', message: expect.any(String) });
        expect(reply.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: field })]));
      }
      expect((await post(path('bad'), ['I moved to Daejeon.'])).status).toBe(400);
      expect((await get('/v1/tenants/bad/memories')).body).toEqual([]);
      expect((await get(`/v1/tenants/bad/facts?${q({ subject: 'user', relation: 'lives in' })}`)).body).toMatchObject({ value: null, values: [] });
    });
  });

  it('serves an OpenAPI 3 document with every route', async () => {
    const doc = await get('/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    const t = '/v1/tenants/{tenant}';
    const expected: [string, string][] = [
      [`${t}/memories`, 'post'],
      [`${t}/memories`, 'get'],
      [`${t}/memories/{memoryId}`, 'get'],
      [`${t}/memories/{memoryId}/quarantine`, 'post'],
      [`${t}/memories/{memoryId}/restore`, 'post'],
      [`${t}/memories/{memoryId}/confirm`, 'post'],
      [`${t}/memories/{memoryId}/retype`, 'post'],
      [`${t}/memories/{memoryId}/retract`, 'post'],
      [`${t}/retractions`, 'post'],
      [`${t}/batches/{batch}/rollback`, 'post'],
      [`${t}/facts`, 'get'],
      [`${t}/subjects/{subject}`, 'get'],
      [`${t}/history`, 'get'],
      [`${t}/context`, 'post'],
      [`${t}/answers`, 'post'],
      [`${t}/answers`, 'get'],
      [`${t}/answers/{answerId}`, 'get'],
      [`${t}/answers/{answerId}/review`, 'post'],
      [`${t}/verifications`, 'post'],
      [`${t}/memories/{memoryId}/answers`, 'get'],
      [`${t}/answers/revisions`, 'post'],
      [`${t}/traces/{id}`, 'get'],
      [`${t}/messages`, 'post'],
      [`${t}/messages/{messageId}`, 'get'],
      [`${t}/erasures`, 'post'],
      ['/health', 'get'],
    ];
    for (const [path, method] of expected) expect(doc.body.paths[path]?.[method]).toBeDefined();
    const factParams = doc.body.paths[`${t}/facts`].get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    expect(factParams).toEqual(expect.arrayContaining(['path:tenant', 'query:subject', 'query:relation', 'query:scope', 'query:validAt', 'query:knownAt', 'query:minPosition']));
    expect(doc.body.components.schemas).toHaveProperty('AssertInput');
    expect(doc.body.components.schemas).toHaveProperty('IngestMessageInput');
    expect(doc.body.components.schemas).toHaveProperty('IngestResult');
    expect(doc.body.paths[`${t}/messages`].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/IngestMessageInput' });
  });
});
