/**
 * What the KurrentDB adapter adds to the contract (libs/testing/src/event-store.contract.ts runs it too): several
 * processes on one server, each with its own client and its own copy of a tenant's stream.
 * Against the local protocol server, and a real one when KURRENTDB_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { LOG_START } from '../event-store.port';
import { connectKurrentDb } from './kurrentdb-client';
import { KurrentDbEventStore } from './kurrentdb-event-store';
import { type KurrentProtocolServer, startLocalKurrentDb, testAppendContext } from '@factledger/testing';

const ev = (type = 'Tested', data: unknown = {}) => ({ eventId: randomUUID(), type, data });

describe('the KurrentDB event store, several processes on one server', () => {
  let server: KurrentProtocolServer | null = null;
  let url: string;
  const stores: KurrentDbEventStore[] = [];
  const open = () => {
    const store = new KurrentDbEventStore(connectKurrentDb(url));
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    if (process.env.KURRENTDB_URL) url = process.env.KURRENTDB_URL;
    else {
      server = await startLocalKurrentDb();
      url = server.url;
    }
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    await server?.close();
  });

  it('lets writers that raced for a tenant decide again: every append lands once, with its versions in order', async () => {
    const tenant = `race-${randomUUID().slice(0, 8)}`;
    const [a, b] = [open(), open()];
    const ctx = testAppendContext({ tenant });
    // Each process appends to its own logical streams; all of them race for the tenant's one stream.
    await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => a.append(ctx, [{ streamId: `a${i % 2}`, expectedVersion: 'any', events: [ev('A', { i })] }])),
      ...Array.from({ length: 10 }, (_, i) => b.append(ctx, [{ streamId: `b${i % 2}`, expectedVersion: 'any', events: [ev('B', { i })] }])),
    ]);
    const reader = open();
    for (const id of ['a0', 'a1', 'b0', 'b1']) {
      const stream = await reader.readStream(tenant, id);
      expect(stream.events.map((e) => e.streamVersion)).toEqual([0, 1, 2, 3, 4]);
    }
    const all = (await reader.readAll(LOG_START, 100_000)).filter((e) => e.tenant === tenant);
    expect(all).toHaveLength(20);
    expect(new Set(all.map((e) => e.eventId)).size).toBe(20);
  });

  it('keeps its copy of a tenant whole while command claims are looked up beside appends: versions without gaps, the log verified', async () => {
    const tenant = `claims-${randomUUID().slice(0, 8)}`;
    const [a, b] = [open(), open()];
    const ctx = (commandId: string) => testAppendContext({ tenant, commandId });
    // Another process appends; this one, whose copy is behind, looks claims up several at once (each
    // look-up brings the copy up to date), then appends on its copy.
    for (let i = 0; i < 6; i++) await b.append(ctx(`b-${i}`), [{ streamId: 's', expectedVersion: 'any', events: [ev('B', { i })] }]);
    await Promise.all(Array.from({ length: 6 }, (_, i) => a.commandClaim(tenant, `b-${i}`)));
    await a.append(ctx('a-0'), [{ streamId: 's', expectedVersion: 5, events: [ev('A')] }]);
    await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => a.append(ctx(`a-${i + 1}`), [{ streamId: 's', expectedVersion: 'any', events: [ev('A', { i })] }])),
      ...Array.from({ length: 4 }, () => a.commandClaim(tenant, 'a-0')),
    ]);
    const stream = await open().readStream(tenant, 's');
    expect(stream.events.map((e) => e.streamVersion)).toEqual(Array.from({ length: 11 }, (_, i) => i));
    expect(await a.commandClaim(tenant, 'b-3')).toMatchObject({ position: expect.any(Number) });
    expect((await a.verify()).ok).toBe(true);
  });

  it('refuses a write decided on what another process has since changed, and answers a retried command as a duplicate', async () => {
    const tenant = `stale-${randomUUID().slice(0, 8)}`;
    const [a, b] = [open(), open()];
    const ctx = testAppendContext({ tenant });
    await a.append(ctx, [{ streamId: 's', expectedVersion: 'no-stream', events: [ev()] }]);
    expect((await b.readStream(tenant, 's')).version).toBe(0);
    await a.append(ctx, [{ streamId: 's', expectedVersion: 0, events: [ev()] }]);
    await expect(b.append(ctx, [{ streamId: 's', expectedVersion: 0, events: [ev()] }])).rejects.toMatchObject({ code: 'version_conflict', actual: 1 });
    const first = await a.append({ ...ctx, commandId: 'cmd-1', commandFingerprint: 'f-1' }, [{ streamId: 's', expectedVersion: 1, events: [ev()] }]);
    const retried = await b.append({ ...ctx, commandId: 'cmd-1', commandFingerprint: 'f-2' }, [{ streamId: 's', expectedVersion: 1, events: [ev()] }]);
    // The fingerprint of the first claim, from the events' metadata: b never saw the append.
    expect(retried).toMatchObject({ duplicate: true, position: first.position, commandFingerprint: 'f-1' });
    expect((await open().readStream(tenant, 's')).version).toBe(2);
  });

  // Two processes that both found a command id unclaimed append under it at once: the server takes
  // the second append (its event ids derived from the same command id, after the same revision) as a
  // retry of the first and writes nothing. That one is a duplicate, not a write that landed.
  it("answers the loser of a race for a command id as a duplicate, with the winner's fingerprint", async () => {
    const tenant = `claim-${randomUUID().slice(0, 8)}`;
    const [a, b] = [open(), open()];
    const ctx = testAppendContext({ tenant });
    await a.append(ctx, [{ streamId: 's', expectedVersion: 'no-stream', events: [ev()] }]);
    expect((await b.readStream(tenant, 's')).version).toBe(0);
    const [fromA, fromB] = await Promise.all([
      a.append({ ...ctx, commandId: 'cmd-1', commandFingerprint: 'f-a' }, [{ streamId: 'of-a', expectedVersion: 'no-stream', events: [ev('A')] }]),
      b.append({ ...ctx, commandId: 'cmd-1', commandFingerprint: 'f-b' }, [{ streamId: 'of-b', expectedVersion: 'no-stream', events: [ev('B')] }]),
    ]);
    const [won, lost] = fromA.duplicate ? [fromB, fromA] : [fromA, fromB];
    expect(won.duplicate).toBe(false);
    expect(lost).toMatchObject({ duplicate: true, position: won.position, positions: [], commandFingerprint: won === fromA ? 'f-a' : 'f-b' });
    const reader = open();
    const written = (await reader.readAll(LOG_START, 100_000)).filter((e) => e.tenant === tenant && e.commandId === 'cmd-1');
    expect(written.map((e) => e.type)).toEqual([won === fromA ? 'A' : 'B']);
  });

  it('keeps one tenant out of another whose name it begins with', async () => {
    const tenant = `p-${randomUUID().slice(0, 8)}`;
    const store = open();
    await store.append(testAppendContext({ tenant }), [{ streamId: 's', expectedVersion: 'no-stream', events: [ev()] }]);
    await store.append(testAppendContext({ tenant: `${tenant}x` }), [{ streamId: 's', expectedVersion: 'no-stream', events: [ev(), ev()] }]);
    expect((await open().readStream(tenant, 's')).events).toHaveLength(1);
    expect(store.streamOf('a/b')).toBe('factledger-a%2Fb');
  });
});
