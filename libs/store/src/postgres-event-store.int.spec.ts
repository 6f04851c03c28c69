import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Client } from 'pg';
import { ExpectedVersionConflict } from './errors';
import { type AppendContext, LOG_START } from './event-store.port';
import { APPEND_LOCK, PostgresEventStore, readLog } from './postgres-event-store';
import { createTestDatabase, type TestDatabase, testBackends } from './test-database';

const ctx = (over: Partial<AppendContext> = {}): AppendContext => ({
  tenant: 't1',
  commandId: null,
  causationId: null,
  correlationId: null,
  batch: null,
  recordedAt: new Date('2026-12-01T00:00:00Z'),
  ...over,
});
const ev = (type = 'Tested', data: unknown = {}) => ({ eventId: randomUUID(), type, data });

describe.each(testBackends())('PostgresEventStore on %s', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    store = new PostgresEventStore(database.db);
  });
  afterAll(() => database.close());

  it('appends a batch in order and reads the stream back with versions and metadata', async () => {
    const result = await store.append(ctx({ batch: 'b1', correlationId: 'c1' }), [
      { streamId: 's-order', expectedVersion: 'no-stream', events: [ev('A', { n: 1 }), ev('B', { n: 2 }), ev('C', { n: 3 })] },
    ]);
    const read = await store.readStream('t1', 's-order');
    expect(read.version).toBe(2);
    expect(read.events.map((e) => [e.type, e.streamVersion, e.data])).toEqual([
      ['A', 0, { n: 1 }],
      ['B', 1, { n: 2 }],
      ['C', 2, { n: 3 }],
    ]);
    expect(read.events[2]!.globalPosition).toBe(result.position);
    expect(read.events[0]!.globalPosition).toBeLessThan(read.events[1]!.globalPosition);
    expect(read.events.every((e) => e.batch === 'b1' && e.correlationId === 'c1' && e.tenant === 't1')).toBe(true);
    expect(read.events[0]!.recordedAt.toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });

  it('rejects a stale expected version with a typed conflict and writes nothing', async () => {
    await store.append(ctx(), [{ streamId: 's-occ', expectedVersion: 'no-stream', events: [ev()] }]);
    await store.append(ctx(), [{ streamId: 's-occ', expectedVersion: 0, events: [ev()] }]);
    await expect(store.append(ctx(), [{ streamId: 's-occ', expectedVersion: 0, events: [ev()] }])).rejects.toBeInstanceOf(
      ExpectedVersionConflict,
    );
    await expect(store.append(ctx(), [{ streamId: 's-occ', expectedVersion: 'no-stream', events: [ev()] }])).rejects.toThrow(
      /at version 1, expected no stream/,
    );
    expect((await store.readStream('t1', 's-occ')).events).toHaveLength(2);
  });

  it('brings the stream back with a refusal, exactly as a read gives it, and leaves the command unclaimed', async () => {
    await store.append(ctx(), [{ streamId: 's-back', expectedVersion: 'no-stream', events: [ev(), ev()] }]);
    const refused = await store.append(ctx({ commandId: 'cmd-back' }), [{ streamId: 's-back', expectedVersion: 'no-stream', events: [ev()] }]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ExpectedVersionConflict);
    expect((refused as ExpectedVersionConflict).current).toEqual(await store.readStream('t1', 's-back'));
    // Nothing of the refused append stayed, its command id included: the corrected retry lands.
    const retry = await store.append(ctx({ commandId: 'cmd-back' }), [{ streamId: 's-back', expectedVersion: 1, events: [ev()] }]);
    expect(retry.duplicate).toBe(false);
    expect((await store.readStream('t1', 's-back')).version).toBe(2);
  });

  it('appends to several streams atomically: one conflict and none land', async () => {
    await store.append(ctx(), [{ streamId: 's-atom-a', expectedVersion: 'no-stream', events: [ev()] }]);
    await expect(
      store.append(ctx(), [
        { streamId: 's-atom-b', expectedVersion: 'no-stream', events: [ev()] },
        { streamId: 's-atom-a', expectedVersion: 'no-stream', events: [ev()] },
      ]),
    ).rejects.toBeInstanceOf(ExpectedVersionConflict);
    expect((await store.readStream('t1', 's-atom-b')).version).toBe(-1);
  });

  it('appends a retried command only once and returns the original position', async () => {
    const first = await store.append(ctx({ commandId: 'cmd-1' }), [{ streamId: 's-idem', expectedVersion: 'any', events: [ev()] }]);
    const retry = await store.append(ctx({ commandId: 'cmd-1' }), [{ streamId: 's-idem', expectedVersion: 'any', events: [ev()] }]);
    expect(retry).toMatchObject({ duplicate: true, position: first.position });
    expect((await store.readStream('t1', 's-idem')).events).toHaveLength(1);
    const otherTenant = await store.append(ctx({ tenant: 't2', commandId: 'cmd-1' }), [
      { streamId: 's-idem', expectedVersion: 'any', events: [ev()] },
    ]);
    expect(otherTenant.duplicate).toBe(false);
  });

  it('keeps streams of different tenants apart', async () => {
    await store.append(ctx({ tenant: 'a' }), [{ streamId: 's-shared', expectedVersion: 'no-stream', events: [ev()] }]);
    await store.append(ctx({ tenant: 'b' }), [{ streamId: 's-shared', expectedVersion: 'no-stream', events: [ev(), ev()] }]);
    expect((await store.readStream('a', 's-shared')).events).toHaveLength(1);
    expect((await store.readStream('b', 's-shared')).events).toHaveLength(2);
  });

  it('refuses in the database to update, delete or truncate events', async () => {
    await store.append(ctx(), [{ streamId: 's-immutable', expectedVersion: 'any', events: [ev()] }]);
    await expect(sql`UPDATE fl_events SET type = 'X'`.execute(database.db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM fl_events`.execute(database.db)).rejects.toThrow(/append-only/);
    await expect(sql`TRUNCATE fl_events`.execute(database.db)).rejects.toThrow(/append-only/);
    expect((await store.readStream('t1', 's-immutable')).events).toHaveLength(1);
  });

  it('reads the whole log in order from the start, page by page', async () => {
    const all = await store.readAll(LOG_START, 10_000);
    expect(all.length).toBeGreaterThan(5);
    const paged = [];
    let after = LOG_START;
    for (;;) {
      const page = await store.readAll(after, 3);
      if (!page.length) break;
      paged.push(...page);
      after = page[page.length - 1]!.logPosition;
    }
    expect(paged.map((e) => e.eventId)).toEqual(all.map((e) => e.eventId));
    expect(await store.head()).toBe(Math.max(...all.map((e) => e.globalPosition)));
    expect(await store.readBatch('t1', 'b1')).toHaveLength(3);
  });

  if (backend === 'postgres') {
    it('never lets a reader pass an event that a concurrent transaction commits late', async () => {
      const slow = new Client({ connectionString: database.url! });
      await slow.connect();
      try {
        const checkpoint = (await store.readAll(LOG_START, 10_000)).at(-1)!.logPosition;
        // A slow writer follows the append protocol, draws its position, and does not commit yet...
        await slow.query('BEGIN');
        await slow.query('SELECT pg_advisory_xact_lock($1)', [APPEND_LOCK]);
        await slow.query(
          `INSERT INTO fl_events (tenant, stream_id, stream_version, event_id, type, data, recorded_at)
           VALUES ('t1', 's-late', 0, $1, 'Late', '{}', now())`,
          [randomUUID()],
        );
        // ...a fast writer starts after it: it cannot commit first...
        let fastDone = false;
        const fast = store
          .append(ctx(), [{ streamId: 's-fast', expectedVersion: 'no-stream', events: [ev('Fast')] }])
          .then((r) => ((fastDone = true), r));
        await new Promise((r) => setTimeout(r, 200));
        expect(fastDone).toBe(false);
        expect(await readLog(database.db, checkpoint, 100)).toEqual([]);
        await slow.query('COMMIT');
        await fast;
        // ...so a reader sees both in commit order, and nothing behind its checkpoint.
        const after = await readLog(database.db, checkpoint, 100);
        expect(after.map((e) => e.type)).toEqual(['Late', 'Fast']);
        expect(after[0]!.globalPosition).toBeLessThan(after[1]!.globalPosition);
      } finally {
        await slow.end();
      }
    });

    it('is not held back by a long transaction in another database of the same server', async () => {
      const other = new Client({ connectionString: process.env.FL_PG_ADMIN_URL! });
      await other.connect();
      try {
        await other.query('BEGIN');
        await other.query('SELECT pg_current_xact_id()');
        const { position } = await store.append(ctx(), [{ streamId: 's-neighbour', expectedVersion: 'no-stream', events: [ev('Seen')] }]);
        const seen = await readLog(database.db, { commit: '0', prepare: position - 1 }, 10);
        expect(seen.map((e) => e.type)).toEqual(['Seen']);
      } finally {
        await other.query('ROLLBACK');
        await other.end();
      }
    });

    it('lets only one of two concurrent writers append at the same expected version', async () => {
      await store.append(ctx(), [{ streamId: 's-race', expectedVersion: 'no-stream', events: [ev()] }]);
      const results = await Promise.allSettled(
        [1, 2, 3].map(() => store.append(ctx(), [{ streamId: 's-race', expectedVersion: 0, events: [ev()] }])),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof ExpectedVersionConflict)).toHaveLength(2);
    });
  }
});
