/**
 * A commandId over HTTP: it replays only the command it first named. Another write under it (a
 * quarantine of another memory, an assert of another value) is a 409 `command_id_reused` and
 * changes nothing; the same write sent again is answered as replayed.
 */
import { testBackends } from '@factledger/testing';
import { startTestServer, type TestServer } from '../test/test-server';

interface Reply {
  status: number;
  body: any;
}

describe.each(testBackends())('command ids over HTTP on %s', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(() => server?.close());

  async function http(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Reply> {
    const res = await fetch(server.base + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }
  const get = (path: string) => http('GET', path);
  const post = (path: string, body?: unknown) => http('POST', path, body);

  it('answers another command under a used commandId with 409 command_id_reused, and changes nothing', async () => {
    const first = await post('/v1/tenants/ids/memories', { subject: 'api', relation: 'port', value: '8000', commandId: 'c1' });
    expect(first).toMatchObject({ status: 201, body: { outcome: 'created', replayed: false } });
    const other = await post('/v1/tenants/ids/memories', { subject: 'web', relation: 'port', value: '80' });
    expect(other.status).toBe(201);

    const quarantine = await post(`/v1/tenants/ids/memories/${other.body.memoryId}/quarantine`, { commandId: 'c1' });
    expect(quarantine.status).toBe(409);
    expect(quarantine.body).toMatchObject({ error: 'command_id_reused', message: expect.stringContaining('c1') });
    expect((await get(`/v1/tenants/ids/memories/${other.body.memoryId}`)).body.status).toBe('active');

    const another = await post('/v1/tenants/ids/memories', { subject: 'api', relation: 'port', value: '9000', commandId: 'c1' });
    expect(another.status).toBe(409);
    expect(another.body).toMatchObject({ error: 'command_id_reused' });
    expect((await get('/v1/tenants/ids/facts?subject=api&relation=port')).body.value).toBe('8000');
  });

  it('answers the same command sent again under its commandId with its first memory and position', async () => {
    const input = { subject: 'cache', relation: 'ttl', value: '60', commandId: 'c-retry' };
    const first = await post('/v1/tenants/ids-retry/memories', input);
    expect(first.status).toBe(201);
    const again = await post('/v1/tenants/ids-retry/memories', input);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ memoryId: first.body.memoryId, position: first.body.position });
    expect((await get('/v1/tenants/ids-retry/memories')).body.map((m: { memoryId: string }) => m.memoryId)).toEqual([first.body.memoryId]);
  });
});
