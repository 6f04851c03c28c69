/**
 * The request log end to end: the real server on a random port with the server's pino logger
 * writing to a stream the test reads, Node's fetch, and assertions on the JSON lines — one per
 * request, with its id (taken from `x-request-id` when sane, echoed back), tenant, status and
 * time; a body refused for malformed JSON logged too; a 5xx at level error; no credentials.
 */
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { INestApplication } from '@nestjs/common';
import { ledgerOn } from '@factledger/ledger';
import { createTestDatabase, type TestDatabase } from '@factledger/testing';
import { createServer } from './create-server';
import { createLogger, requestLevel, requestLog } from './logging';

type Line = Record<string, any>;

/** A pino destination that keeps every line, parsed. */
function capture(): { stream: Writable; lines: Line[] } {
  const lines: Line[] = [];
  let rest = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const parts = (rest + chunk.toString('utf8')).split('\n');
      rest = parts.pop()!;
      for (const part of parts) if (part) lines.push(JSON.parse(part));
      done();
    },
  });
  return { stream, lines };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request log', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let base: string;
  const { stream, lines } = capture();

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    app = await createServer({ handle: ledgerOn(database), logger: createLogger('info', stream), config: { rateLimit: 0 } });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  /** Sends a request and returns its response with the one request line carrying its id. */
  async function send(method: 'GET' | 'POST', path: string, options: { headers?: Record<string, string>; body?: string } = {}) {
    const headers = { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers };
    const res = await fetch(base + path, { method, headers, body: options.body });
    await res.text();
    const reqId = res.headers.get('x-request-id');
    // The line is written on the response's 'finish', which may come a moment after the client has it.
    const deadline = Date.now() + 2000;
    let found: Line[] = [];
    while (Date.now() < deadline) {
      found = lines.filter((l) => l.msg === 'request' && l.reqId === reqId);
      if (found.length > 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(found).toHaveLength(1);
    return { status: res.status, reqId, line: found[0]! };
  }

  it('writes one short line per request: method, url, tenant, status, ms and a generated id echoed in x-request-id', async () => {
    const created = await send('POST', '/v1/tenants/acme/memories', { body: JSON.stringify({ subject: 'api', relation: 'port', value: '8000' }) });
    expect(created.status).toBe(201);
    expect(created.reqId).toMatch(UUID);
    expect(created.line).toEqual({
      level: 30,
      time: expect.any(String),
      service: 'factledger',
      reqId: created.reqId,
      req: { method: 'POST', url: '/v1/tenants/acme/memories', remoteAddress: expect.stringMatching(/127\.0\.0\.1$/) },
      tenant: 'acme',
      res: { statusCode: 201 },
      ms: expect.any(Number),
      msg: 'request',
    });
    const read = await send('GET', '/v1/tenants/acme/facts?subject=api&relation=port');
    expect(read.status).toBe(200);
    expect(read.line).toMatchObject({ level: 30, tenant: 'acme', req: { method: 'GET', url: '/v1/tenants/acme/facts?subject=api&relation=port' }, res: { statusCode: 200 } });
    const health = await send('GET', '/health');
    expect(health.line).toMatchObject({ level: 30, req: { url: '/health' }, res: { statusCode: 200 } });
    expect(health.line).not.toHaveProperty('tenant');
    expect(new Set([created.reqId, read.reqId, health.reqId]).size).toBe(3);
  });

  it('keeps a sane incoming x-request-id, logs and echoes it, and replaces one that is too long or not printable ASCII', async () => {
    const given = await send('GET', '/health', { headers: { 'x-request-id': 'client-42:abc/DEF' } });
    expect(given.reqId).toBe('client-42:abc/DEF');
    expect(given.line.reqId).toBe('client-42:abc/DEF');
    for (const insane of ['x'.repeat(129), 'caf\u00e9']) {
      const replaced = await send('GET', '/health', { headers: { 'x-request-id': insane } });
      expect(replaced.reqId).toMatch(UUID);
      expect(JSON.stringify(lines)).not.toContain(insane);
    }
  });

  it('logs a request refused for malformed JSON, with its 400 (the log sits before the body parser)', async () => {
    const refused = await send('POST', '/v1/tenants/acme/memories', { body: '{"subject": "api", ' });
    expect(refused.status).toBe(400);
    expect(refused.line).toMatchObject({ level: 30, tenant: 'acme', req: { method: 'POST' }, res: { statusCode: 400 } });
  });

  it('never logs the authorization header, cookies, an x-api-key or a body', async () => {
    const secretBody = 'body-secret-' + Math.random().toString(36).slice(2);
    const sent = await send('POST', '/v1/tenants/acme/memories', {
      headers: { authorization: 'Bearer secret-xyz', cookie: 'session=cookie-secret', 'x-api-key': 'key-secret' },
      body: JSON.stringify({ subject: 'door', relation: 'code', value: secretBody }),
    });
    expect(sent.status).toBe(201);
    const all = JSON.stringify(lines);
    for (const secret of ['secret-xyz', 'cookie-secret', 'key-secret', secretBody]) expect(all).not.toContain(secret);
    expect(Object.keys(sent.line.req).sort()).toEqual(['method', 'remoteAddress', 'url']);
  });

  it('logs a 5xx at level error, without a made-up error object', async () => {
    const failed = await send('POST', '/v1/tenants/acme/answers/revisions', { body: JSON.stringify({ answer: 'x' }) });
    expect(failed.status).toBe(501);
    expect(failed.line).toMatchObject({ level: 50, tenant: 'acme', res: { statusCode: 501 }, ms: expect.any(Number) });
    expect(failed.line).not.toHaveProperty('err');
  });
});

describe('request log pieces', () => {
  it('chooses error for a 5xx or a failed response, info otherwise', () => {
    const res = (statusCode: number) => ({ statusCode }) as any;
    expect([200, 201, 400, 404, 499].map((s) => requestLevel({} as any, res(s)))).toEqual(['info', 'info', 'info', 'info', 'info']);
    expect([500, 501, 503].map((s) => requestLevel({} as any, res(s)))).toEqual(['error', 'error', 'error']);
    expect(requestLevel({} as any, res(200), new Error('socket hang up'))).toBe('error');
  });

  it('redacts credentials in headers even when someone logs the headers', () => {
    const { stream, lines } = capture();
    const logger = requestLog(createLogger('info', stream)).logger;
    const headers = { authorization: 'Bearer secret-xyz', cookie: 'a=b', 'x-api-key': 'k', 'set-cookie': 's', accept: '*/*' };
    // (`req` and `res` go through the short serializers, which drop headers altogether.)
    logger.info({ headers }, 'with headers');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.headers).toEqual({ authorization: '[Redacted]', cookie: '[Redacted]', 'x-api-key': '[Redacted]', 'set-cookie': '[Redacted]', accept: '*/*' });
  });
});
