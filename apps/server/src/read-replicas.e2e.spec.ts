/**
 * The server with a real PostgreSQL hot standby for its reads (FACTLEDGER_READ_URLS in
 * production; libs/testing standby.ts here): over HTTP a client reads its own writes without
 * naming a position, recall's context is assembled on the standby, and /metrics shows it serving.
 */
import { openDatabase, ReadReplicas } from '@factledger/store';
import { type Standby, standbyUnavailable, startStandby } from '@factledger/testing';
import { startTestServer, type TestServer } from '../test/test-server';

const unavailable = standbyUnavailable();
const suite = unavailable && process.env.CI !== 'true' ? describe.skip : describe;

suite('the server reading from a PostgreSQL hot standby', () => {
  let standby: Standby;
  let server: TestServer;
  let replicas: ReadReplicas;

  beforeAll(async () => {
    standby = await startStandby();
    server = await startTestServer('postgres', {
      replicas: async (database) => {
        await standby.caughtUp();
        replicas = new ReadReplicas([{ name: 'standby', database: await openDatabase({ url: standby.urlOf(database.name), connectTimeoutMs: 1000 }) }], { behindMs: 100 });
        return replicas;
      },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await standby?.close();
  }, 60_000);

  const json = async (path: string, init?: RequestInit) => {
    const res = await fetch(server.base + path, init);
    return { status: res.status, body: await res.json() };
  };
  const post = (path: string, body: unknown) => json(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('serves a client its own writes with no position named, with the replay paused for a while', async () => {
    const wrong: string[] = [];
    for (let i = 0; i < 60; i++) {
      if (i === 20) await standby.pauseReplay();
      if (i === 30) await standby.resumeReplay();
      const wrote = await post('/v1/tenants/rr/memories', { subject: 'deploy', relation: 'region', value: `r${i}` });
      expect(wrote.status).toBe(201);
      const read = await json('/v1/tenants/rr/facts?subject=deploy&relation=region');
      if (read.body.value !== `r${i}`) wrong.push(`${i}: ${read.body.value}`);
    }
    await standby.resumeReplay();
    expect(wrong).toEqual([]);
    // Served by the standby before the pause and again after it (the writes in between went to the primary).
    expect(replicas.status()[0]!.served).toBeGreaterThan(30);
  }, 120_000);

  it("assembles recall's context on the standby, showing the memory just written", async () => {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const moved = await post('/v1/tenants/ctx/memories', { subject: 'billing database', relation: 'host', value: 'db-7.internal' });
    const before = replicas.status()[0]!.served;
    const reply = await post('/v1/tenants/ctx/context', { query: 'Which host does the billing database run on?', minPosition: moved.body.position, budgetTokens: 200 });
    expect(reply.status).toBe(200);
    expect(JSON.stringify(reply.body.items)).toContain('db-7.internal');
    expect(replicas.status()[0]!.served).toBe(before + 1);
  }, 60_000);

  it('shows the standby in /metrics', async () => {
    const text = await (await fetch(`${server.base}/metrics`)).text();
    expect(text).toMatch(/factledger_replica_serving\{replica="standby",state="serving"\} 1/);
    expect(text).toMatch(/factledger_replica_reads\{replica="standby"\} [1-9]\d*/);
  });
});
