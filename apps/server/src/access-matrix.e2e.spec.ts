/**
 * The authorization matrix in `npm test` (bench/access-matrix.ts): every operation of the
 * committed contract, clients/openapi.json, under every spelling of its path and HEAD and OPTIONS,
 * with no key, a malformed, unknown, revoked and expired key, another tenant's key, an operator's
 * key, and one key of the tenant per missing scope, each cell expected as decideAccess decides.
 * Then writes through every spelling that reaches the route, and every event in the log names
 * the key that caused it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '@factledger/domain';
import { ledgerOn } from '@factledger/ledger';
import { testBackends } from '@factledger/testing';
import { sql } from 'kysely';
import { type Contract, contractOperations, FULL_KEY as FULL, literalSegments, type MatrixKey, matrixKeys, runAccessMatrix, spellingsOf } from '../../../bench/access-matrix';
import { startTestServer, type TestServer } from '../test/test-server';

const CONTRACT = JSON.parse(readFileSync(join(__dirname, '../../../clients/openapi.json'), 'utf8')) as Contract;

describe.each(testBackends())('the authorization matrix on %s', (backend) => {
  let server: TestServer;
  const keys: Record<string, MatrixKey> = {};
  const secret = (name: string) => keys[name]!.secret!;

  beforeAll(async () => {
    server = await startTestServer(backend, {
      config: { auth: 'required', rateLimit: 0 },
      prepare: async (handle) => {
        const early = ledgerOn(handle.database, { clock: new ManualClock(new Date(Date.now() - 3_600_000)) });
        Object.assign(keys, await matrixKeys(handle.keys, 'acme', early.keys));
      },
    });
  });

  afterAll(() => server?.close());

  it('reads every operation of the committed contract, each public or naming its scope, and the server serves the same', async () => {
    const operations = contractOperations(CONTRACT);
    expect(operations.length).toBeGreaterThanOrEqual(29);
    expect(
      operations
        .filter((o) => o.scope === null)
        .map((o) => o.template)
        .sort(),
    ).toEqual(['/health', '/metrics', '/openapi.json']);
    const served = (await (await fetch(`${server.base}/openapi.json`)).json()) as Contract;
    expect(contractOperations(served)).toEqual(operations);
  });

  it('answers every cell (operation × spelling × method × key) as decideAccess decides, each spelling that reaches the route as its canonical path does', async () => {
    const result = await runAccessMatrix({ base: server.base, contract: CONTRACT, tenant: 'acme', keys, fullKey: FULL });
    expect(result.failures).toEqual([]);
    expect(result.cells).toBeGreaterThan(2_500);
  }, 300_000); // 3,844 requests: on a loaded 2-core host past jest's 60 s default

  it('takes a write through every spelling of its path that reaches the route, and every event in the log names the key that caused it', async () => {
    const spellings = spellingsOf('/v1/tenants/acme/memories', literalSegments('/v1/tenants/{tenant}/memories')).filter((s) => s.routes);
    const statuses = [];
    for (const [i, spelling] of spellings.entries()) {
      const res = await fetch(server.base + spelling.path, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret(FULL)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ subject: 'matrix door', relation: 'spelled as', value: spelling.name, text: `Written through spelling ${i}.` }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual(spellings.map(() => 201));
    const facts = await fetch(`${server.base}/v1/tenants/acme/facts?subject=matrix%20door&relation=spelled%20as`, { headers: { authorization: `Bearer ${secret(FULL)}` } });
    expect(((await facts.json()) as { value: string }).value).toBe(spellings.at(-1)!.name);
    // The matrix's refused requests appended nothing, and every write named its key.
    const { rows } = await sql<{ actor: string | null }>`SELECT DISTINCT actor FROM fl_events`.execute(server.database.db);
    expect(rows.map((r) => r.actor)).toEqual([keys[FULL]!.key!.keyId]);
  });

  it('keeps /mcp behind the same door under every spelling: no usable key is a 401, a foreign tenant a 404', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'matrix', version: '1.0.0' } } };
    const post = (path: string, name: string) =>
      fetch(server.base + path, {
        method: 'POST',
        headers: { ...(keys[name]!.secret ? { authorization: `Bearer ${keys[name]!.secret}` } : {}), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(initialize),
      });
    const failures: string[] = [];
    for (const spelling of spellingsOf('/mcp', () => true).filter((s) => s.routes)) {
      for (const name of ['no key', 'malformed', 'unknown', 'revoked', 'expired']) {
        const status = (await post(spelling.path, name)).status;
        if (status !== 401) failures.push(`${spelling.path} with ${name}: ${status}`);
      }
      const foreign = (await post(`${spelling.path}?tenant=acme`, 'another tenant')).status;
      if (foreign !== 404) failures.push(`${spelling.path}?tenant=acme with another tenant's key: ${foreign}`);
      const own = (await post(`${spelling.path}?tenant=acme`, FULL)).status;
      if (own !== 200) failures.push(`${spelling.path}?tenant=acme with the tenant's key: ${own}`);
    }
    expect(failures).toEqual([]);
  });
});
