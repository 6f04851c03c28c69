import { startTestServer, type TestServer } from '../apps/server/test/test-server';
import { ConflictError, createFactledgerClient, type FactledgerClient, ForbiddenError, InvalidInputError, NotFoundError, ok, UnauthenticatedError } from './typescript/src';

/** The TypeScript client against the real server (HTTP, keys, the routes' own validation), on PGlite. */
describe('the TypeScript client', () => {
  let server: TestServer;
  let api: FactledgerClient;
  const secrets: Record<string, string> = {};
  const path = { tenant: 'acme' };

  beforeAll(async () => {
    server = await startTestServer('pglite', {
      config: { auth: 'required', rateLimit: 0 },
      prepare: async (handle) => {
        for (const [name, tenant, scopes] of [
          ['writer', 'acme', 'read,write,admin'],
          ['reader', 'acme', 'read'],
          ['other', 'beta', 'read,write'],
        ] as const) {
          secrets[name] = (await handle.keys.create({ tenant, scopes, name })).secret;
        }
      },
    });
    api = createFactledgerClient({ baseUrl: `${server.base}/`, apiKey: secrets.writer });
  });
  afterAll(() => server.close());

  it('writes, supersedes, and reads a value now and as it was known before the change', async () => {
    const first = await ok(api.POST('/v1/tenants/{tenant}/memories', { params: { path }, body: { subject: 'billing-api', relation: 'port', value: '8000' } }));
    expect(first.outcome).toBe('created');
    const before = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    const second = await ok(api.POST('/v1/tenants/{tenant}/memories', { params: { path }, body: { subject: 'billing-api', relation: 'port', value: '8080' } }));
    expect(second.outcome).toBe('superseded');
    const now = await ok(api.GET('/v1/tenants/{tenant}/facts', { params: { path, query: { subject: 'billing-api', relation: 'port', minPosition: second.position } } }));
    expect(now.value).toBe('8080');
    const then = await ok(api.GET('/v1/tenants/{tenant}/facts', { params: { path, query: { subject: 'billing-api', relation: 'port', knownAt: before } } }));
    expect(then.value).toBe('8000');
    const history = await ok(api.GET('/v1/tenants/{tenant}/history', { params: { path, query: { subject: 'billing-api', relation: 'port' } } }));
    expect(history.entries.map((e) => e.value)).toEqual(expect.arrayContaining(['8000', '8080']));
    // A lifecycle change under a batch, and the batch rolled back.
    const quarantined = await ok(
      api.POST('/v1/tenants/{tenant}/memories/{memoryId}/quarantine', { params: { path: { ...path, memoryId: second.memoryId } }, body: { batch: 'review-1', reason: 'unverified' } }),
    );
    const rolled = await ok(api.POST('/v1/tenants/{tenant}/batches/{batch}/rollback', { params: { path: { ...path, batch: 'review-1' } }, body: {} }));
    expect(rolled.position).toBeGreaterThan(quarantined.position);
    const back = await ok(api.GET('/v1/tenants/{tenant}/memories/{memoryId}', { params: { path: { ...path, memoryId: second.memoryId }, query: { minPosition: rolled.position } } }));
    expect(back.status).toBe('active');
  });

  it('throws typed errors with the stable code and the fields at fault', async () => {
    const bad = ok(api.POST('/v1/tenants/{tenant}/memories', { params: { path }, body: { subject: 'x', relation: 'y' } as never }));
    await expect(bad).rejects.toBeInstanceOf(InvalidInputError);
    await expect(bad).rejects.toMatchObject({ status: 400, code: 'invalid_input', issues: expect.arrayContaining([expect.objectContaining({ path: expect.any(String) })]) });
    await expect(ok(api.GET('/v1/tenants/{tenant}/memories/{memoryId}', { params: { path: { ...path, memoryId: 'nope' } } }))).rejects.toMatchObject({
      constructor: NotFoundError,
      code: 'unknown_memory',
    });
    const stranger = createFactledgerClient({ baseUrl: server.base, apiKey: 'wrong' });
    await expect(ok(stranger.GET('/v1/tenants/{tenant}/answers', { params: { path } }))).rejects.toBeInstanceOf(UnauthenticatedError);
    // Another tenant's key sees nothing here: 404, as for anything that is not there.
    const other = createFactledgerClient({ baseUrl: server.base, apiKey: secrets.other });
    await expect(ok(other.GET('/v1/tenants/{tenant}/answers', { params: { path } }))).rejects.toMatchObject({ constructor: NotFoundError, code: 'not_found' });
    const reader = createFactledgerClient({ baseUrl: server.base, apiKey: secrets.reader });
    await expect(ok(reader.POST('/v1/tenants/{tenant}/memories', { params: { path }, body: { text: 'A note.' } }))).rejects.toBeInstanceOf(ForbiddenError);
    // A value of one cardinality asserted as another: a conflict.
    await ok(api.POST('/v1/tenants/{tenant}/memories', { params: { path }, body: { subject: 'alice', relation: 'speaks', value: 'French', cardinality: 'many' } }));
    await expect(ok(api.POST('/v1/tenants/{tenant}/memories', { params: { path }, body: { subject: 'alice', relation: 'speaks', value: 'German', cardinality: 'one' } }))).rejects.toBeInstanceOf(
      ConflictError,
    );
  });

  it('covers every operation of the contract by a typed path', async () => {
    const doc = (await (await fetch(`${server.base}/openapi.json`)).json()) as { paths: Record<string, object> };
    const committed = (await import('./openapi.json')) as unknown as { paths: Record<string, object> };
    expect(Object.keys(committed.paths).sort()).toEqual(Object.keys(doc.paths).sort());
  });
});
