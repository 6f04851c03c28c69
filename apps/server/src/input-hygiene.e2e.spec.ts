/**
 * Text that PostgreSQL or JSON cannot hold, sent to every route of the OpenAPI document: the NUL
 * character and a lone UTF-16 surrogate in every path segment, every query parameter and every
 * field of a body. Each must be a 400 that names the field, and the log must not change.
 */
import { type TestDatabase, testBackends } from '@factledger/store';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from './test-server';

/** Each bad text as a body holds it, and as a URL carries it (a lone surrogate has no UTF-8 form: its CESU-8 bytes, which are not UTF-8). */
const BAD = { nul: { text: 'a\u0000b', url: 'a%00b' }, surrogate: { text: 'a\uD800b', url: 'a%ED%A0%80b' } } as const;

interface Operation {
  method: 'GET' | 'POST';
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
}

describe.each(testBackends())('Unstorable text on every route, on %s', (backend) => {
  let server: TestServer;
  let database: TestDatabase;
  let base: string;
  let operations: Operation[];

  beforeAll(async () => {
    server = await startTestServer(backend);
    ({ database, base } = server);
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, any> } };
    const resolve = (schema: any): any => (schema?.$ref ? doc.components!.schemas![schema.$ref.split('/').at(-1)] : schema);
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => method === 'get' || method === 'post')
        .map(([method, op]) => {
          const params = (op.parameters ?? []) as { in: string; name: string }[];
          const body = resolve(op.requestBody?.content?.['application/json']?.schema);
          const props = body?.properties ?? (body?.allOf ?? body?.anyOf ?? []).flatMap((s: any) => Object.keys(resolve(s)?.properties ?? {}));
          return {
            method: method.toUpperCase() as 'GET' | 'POST',
            path,
            pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
            queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
            bodyFields: Array.isArray(props) ? props : Object.keys(props),
          };
        }),
    );
  });

  afterAll(() => server?.close());

  const events = async (): Promise<number> => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM fl_events`.execute(database.db)).rows[0]!.n);
  const fill = (path: string, params: Record<string, string>): string =>
    path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? (name === 'tenant' ? 'hygiene' : name === 'id' ? '00000000-0000-4000-8000-000000000000' : 'x'));

  async function send(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(base + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  it('finds the routes of the OpenAPI document with their parameters and body fields', () => {
    expect(operations.length).toBeGreaterThanOrEqual(20);
    expect(operations.find((o) => o.method === 'POST' && o.path.endsWith('/memories'))?.bodyFields).toEqual(expect.arrayContaining(['subject', 'text', 'source']));
    expect(operations.find((o) => o.method === 'GET' && o.path.endsWith('/facts'))?.queryParams).toEqual(expect.arrayContaining(['subject', 'relation']));
  });

  it('says that a position past the log\'s head does not exist, on every read that takes minPosition, and answers one that does', async () => {
    const written = await send('POST', '/v1/tenants/hygiene/memories', { subject: 'api', relation: 'port', value: '8000' });
    expect(written.status).toBe(201);
    const far = 999_999_999_999;
    const reads = operations.filter((o) => o.queryParams.includes('minPosition') || o.bodyFields.includes('minPosition'));
    expect(reads.length).toBeGreaterThanOrEqual(5);
    for (const op of reads) {
      const at = (position: number) =>
        op.queryParams.includes('minPosition')
          ? send(
              op.method,
              `${fill(op.path, { memoryId: written.body.memoryId, subject: 'api' })}?${new URLSearchParams({ minPosition: String(position), ...(op.queryParams.includes('subject') ? { subject: 'api' } : {}), ...(op.queryParams.includes('relation') ? { relation: 'port' } : {}), ...(op.queryParams.includes('from') ? { from: '2026-01-01', to: '2026-01-02' } : {}) })}`,
              op.method === 'POST' ? {} : undefined,
            )
          : send(op.method, fill(op.path, {}), { minPosition: position, query: 'Which port?' });
      const beyond = await at(far);
      expect({ route: `${op.method} ${op.path}`, status: beyond.status, issues: beyond.body?.issues }).toEqual({
        route: `${op.method} ${op.path}`,
        status: 400,
        issues: [{ path: 'minPosition', message: expect.stringMatching(/^no event has position 999999999999: the log's last position is \d+$/) }],
      });
      // The head itself is a position that exists: the read goes on (an unknown answer or message id is then a 404).
      expect([200, 404]).toContain((await at(written.body.position)).status);
    }
  });

  it.each(Object.entries(BAD))('answers text with %s anywhere with 400 naming the field, and the log stays as it was', async (kind, bad) => {
    await send('POST', '/v1/tenants/hygiene/memories', { text: 'The hygiene test has one memory.' });
    const before = await events();
    const failures: string[] = [];
    // Named: the field's own issue, or for a path segment that is not UTF-8 at all, the segment itself.
    const check = async (label: string, field: string, reply: { status: number; body: any }, where: 'path' | 'query' | 'body'): Promise<void> => {
      const issues: { path: string; message: string }[] = reply.body?.issues ?? [];
      const named = issues.some((i) => i.path.split('.').includes(field) || (where === 'path' && i.message.includes(bad.url)));
      // A query string that is not UTF-8 is read as the literal text it spells, which can be stored: it only must not fail.
      if (where === 'query' && kind === 'surrogate') {
        if (reply.status >= 500) failures.push(`${label}: ${reply.status} ${JSON.stringify(reply.body)}`);
      } else if (reply.status !== 400 || reply.body?.error !== 'invalid_input' || !named) failures.push(`${label}: ${reply.status} ${JSON.stringify(reply.body)}`);
    };
    for (const op of operations) {
      for (const param of op.pathParams.filter((p) => p !== 'tenant' && !(p === 'id' && op.path.includes('/traces/')))) {
        const path = fill(op.path, { [param]: bad.url });
        await check(`${op.method} ${op.path} path ${param}`, param, await send(op.method, path, op.method === 'POST' ? {} : undefined), 'path');
      }
      for (const param of op.queryParams) {
        const path = `${fill(op.path, {})}?${param}=${bad.url}`;
        await check(`${op.method} ${op.path} query ${param}`, param, await send(op.method, path, op.method === 'POST' ? {} : undefined), 'query');
      }
      for (const field of op.bodyFields) {
        await check(`${op.method} ${op.path} body ${field}`, field, await send(op.method, fill(op.path, {}), { [field]: bad.text }), 'body');
      }
    }
    expect(failures).toEqual([]);
    expect(await events()).toBe(before);
  });
});
