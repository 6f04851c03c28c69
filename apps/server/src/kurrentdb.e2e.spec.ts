/**
 * The server with its log in KurrentDB (FACTLEDGER_EVENT_STORE=kurrentdb): the real server built
 * from configuration alone, the log on a local server speaking KurrentDB's gRPC protocol (a real
 * KurrentDB when KURRENTDB_URL is set), the read models in an embedded PostgreSQL on disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { LOG_START, type OpenedKurrentDb, openDatabase, openKurrentDbEventStore } from '@factledger/store';
import { openKurrentDbOrLocal } from '@factledger/testing';
import { sql } from 'kysely';
import { createServer } from './create-server';

describe('HTTP server with the log in KurrentDB', () => {
  let kurrent: OpenedKurrentDb;
  let url: string;
  let dataDir: string;
  let app: INestApplication | null = null;
  let base: string;

  beforeAll(async () => {
    // The server opens its own client; this one only keeps the local server (if any) up for it.
    kurrent = await openKurrentDbOrLocal(process.env.KURRENTDB_URL);
    url = kurrent.url;
    dataDir = mkdtempSync(join(tmpdir(), 'fl-kurrent-'));
    app = await createServer({ config: { eventStore: 'kurrentdb', kurrentdbUrl: url, dataDir, logLevel: 'silent' } });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app?.close();
    await kurrent.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = async (path: string, body: unknown) => {
    const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const get = async (path: string) => {
    const res = await fetch(base + path);
    return { status: res.status, body: (await res.json()) as any };
  };

  it('writes the log to KurrentDB, projects it into PostgreSQL, and reads its own writes', async () => {
    const tenant = `acme-${Date.now()}`;
    const first = await post(`/v1/tenants/${tenant}/memories`, { subject: 'api', relation: 'port', value: '8000', validFrom: '2026-01-01' });
    expect(first.status).toBe(201);
    const second = await post(`/v1/tenants/${tenant}/memories`, { subject: 'api', relation: 'port', value: '9000', validFrom: '2026-06-01' });
    expect(second.status).toBe(201);
    expect(second.body.position).toBeGreaterThan(first.body.position);

    const now = await get(`/v1/tenants/${tenant}/facts?subject=api&relation=port&minPosition=${second.body.position}`);
    expect(now.status).toBe(200);
    expect(now.body.value ?? now.body.fact?.value).toBe('9000');
    const then = await get(`/v1/tenants/${tenant}/facts?subject=api&relation=port&validAt=2026-03-01`);
    expect(then.body.value ?? then.body.fact?.value).toBe('8000');

    // The events are KurrentDB's: another client reads them there, at the positions the writes returned.
    const reader = await openKurrentDbEventStore(url);
    try {
      const mine = (await reader.store.readAll(LOG_START, 100_000)).filter((e) => e.tenant === tenant);
      expect(mine.map((e) => e.type)).toEqual(expect.arrayContaining(['FactAsserted', 'FactSuperseded']));
      expect(mine.map((e) => e.globalPosition)).toContain(second.body.position);
    } finally {
      await reader.close();
    }
  });

  it('refuses an erasure, which KurrentDB cannot do in place, with 501 and changes nothing', async () => {
    const tenant = `erase-${Date.now()}`;
    const written = await post(`/v1/tenants/${tenant}/memories`, { subject: 'me', relation: 'email', value: 'a@example.com' });
    expect(written.status).toBe(201);
    const refused = await post(`/v1/tenants/${tenant}/erasures`, { memoryId: written.body.memoryId });
    expect(refused.status).toBe(501);
    expect(refused.body.error).toBe('not_supported_by_store');
    const still = await get(`/v1/tenants/${tenant}/memories/${written.body.memoryId}?minPosition=${written.body.position}`);
    expect(still.status).toBe(200);
  });

  it('keeps no log of its own in PostgreSQL', async () => {
    await app!.close();
    app = null;
    const database = await openDatabase({ dataDir });
    try {
      const events = await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_events`.execute(database.db);
      expect(events.rows[0]!.n).toBe(0);
      const memories = await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_memories`.execute(database.db);
      expect(memories.rows[0]!.n).toBeGreaterThanOrEqual(3);
    } finally {
      await database.close();
    }
  });
});
