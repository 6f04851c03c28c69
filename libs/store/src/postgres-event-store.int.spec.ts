import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Client } from 'pg';
import { ExpectedVersionConflict } from './errors';
import { LOG_START } from './event-store.port';
import { APPEND_LOCK, PostgresEventStore, readLog } from './postgres-event-store';
import { createTestDatabase, type TestDatabase, testAppendContext, testBackends } from '@factledger/testing';

const ctx = testAppendContext;
const ev = (type = 'Tested', data: unknown = {}) => ({ eventId: randomUUID(), type, data });

describe.each(testBackends())('PostgresEventStore on %s', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    store = new PostgresEventStore(database.db);
  });
  afterAll(() => database.close());

  // What every store must do (versions, conflicts, atomic batches, idempotence, tenants, order,
  // erasure's rewrite) is the contract suite's (libs/testing/src/event-store.contract.ts); here, what only
  // PostgreSQL must do.
  it('refuses in the database to update, delete or truncate events', async () => {
    await store.append(ctx(), [{ streamId: 's-immutable', expectedVersion: 'any', events: [ev()] }]);
    await expect(sql`UPDATE fl_events SET type = 'X'`.execute(database.db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM fl_events`.execute(database.db)).rejects.toThrow(/append-only/);
    await expect(sql`TRUNCATE fl_events`.execute(database.db)).rejects.toThrow(/append-only/);
    expect((await store.readStream('t1', 's-immutable')).events).toHaveLength(1);
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
        const fast = store.append(ctx(), [{ streamId: 's-fast', expectedVersion: 'no-stream', events: [ev('Fast')] }]).then((r) => ((fastDone = true), r));
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
      const results = await Promise.allSettled([1, 2, 3].map(() => store.append(ctx(), [{ streamId: 's-race', expectedVersion: 0, events: [ev()] }])));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof ExpectedVersionConflict)).toHaveLength(2);
    });
  }
});
