/**
 * The checkpointed consumer with its log behind the port (here the in-memory store, as a log kept
 * outside PostgreSQL would be) and its rows and checkpoint in PostgreSQL: every event applied once,
 * in order, whatever fails where, and whoever else consumes under the same name.
 */
import { randomUUID } from 'node:crypto';
import { type Executor, InMemoryEventStore, type RecordedEvent } from '@factledger/store';
import { createTestDatabase, type TestDatabase, testAppendContext, testBackends } from '@factledger/testing';
import { sql } from 'kysely';
import { CheckpointedConsumer, readCheckpoint } from './checkpointed-consumer';

const ctx = testAppendContext({ tenant: 't' });

describe.each(testBackends())('CheckpointedConsumer on %s', (backend) => {
  let database: TestDatabase;
  let log: InMemoryEventStore;
  let name: string;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    await sql`CREATE TABLE consumed (name text, position bigint, n int, PRIMARY KEY (name, position))`.execute(database.db);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    log = new InMemoryEventStore();
    name = `c-${randomUUID().slice(0, 8)}`;
    for (let n = 0; n < 10; n++) await log.append(ctx, [{ streamId: `s${n % 3}`, expectedVersion: 'any', events: [{ eventId: randomUUID(), type: 'Tested', data: { n } }] }]);
  });

  const consumed = async (): Promise<number[]> => (await sql<{ n: number }>`SELECT n FROM consumed WHERE name = ${name} ORDER BY position`.execute(database.db)).rows.map((r) => r.n);
  const rowsOf = (events: RecordedEvent[]) => events.map((e) => ({ position: e.globalPosition, n: (e.data as { n: number }).n }));
  const insert = (consumer: string) => async (trx: Executor, events: RecordedEvent[]) => {
    await sql`INSERT INTO consumed (name, position, n) SELECT ${consumer}, r.position, r.n FROM jsonb_to_recordset(${JSON.stringify(rowsOf(events))}::jsonb) AS r(position bigint, n int)`.execute(trx);
  };

  it('applies every event once, in log order, page by page, and moves the checkpoint with the rows', async () => {
    const consumer = new CheckpointedConsumer(database.db, log, name, { apply: insert(name) }, 3);
    expect(await consumer.catchUp()).toBe(10);
    expect(await consumed()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect((await readCheckpoint(database.db, name)).prepare).toBe(10);
    await log.append(ctx, [{ streamId: 'late', expectedVersion: 'no-stream', events: [{ eventId: randomUUID(), type: 'Tested', data: { n: 10 } }] }]);
    expect(await consumer.catchUp()).toBe(1);
    expect(await consumer.catchUp()).toBe(0);
    expect(await consumed()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  /** Waits (up to 10 s) until the rows hold `n` events. */
  const untilConsumed = async (n: number): Promise<void> => {
    for (const started = Date.now(); (await consumed()).length < n;) {
      if (Date.now() - started > 10_000) throw new Error(`timed out at ${(await consumed()).length} of ${n} events`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const append = (n: number) => log.append(ctx, [{ streamId: `s${n % 3}`, expectedVersion: 'any', events: [{ eventId: randomUUID(), type: 'Tested', data: { n } }] }]);

  it.each([
    ['without a prepare step (the part already applied is passed over)', false],
    ['with a prepare step (it subscribes again from the checkpoint)', true],
  ])('follows the log through a subscription %s: what is there, then each new event, once, beside catch-ups under the same name', async (_, withPrepare) => {
    const errors: unknown[] = [];
    const follower = new CheckpointedConsumer<number[]>(
      database.db,
      log,
      name,
      { ...(withPrepare ? { prepare: async (events: RecordedEvent[]) => events.map((e) => e.globalPosition) } : {}), apply: insert(name) },
      3,
    );
    const following = follower.follow({ retryMs: 20, onError: (error) => errors.push(error) });
    await untilConsumed(10);
    // Live, while another consumer of the same name (another process, or the inline projection) catches up too.
    const other = new CheckpointedConsumer(database.db, log, name, { apply: insert(name) }, 2);
    for (let n = 10; n < 20; n++) {
      await append(n);
      if (n % 3 === 0) await other.catchUp();
    }
    await untilConsumed(20);
    await following.stop();
    expect(await consumed()).toEqual(Array.from({ length: 20 }, (_, n) => n));
    expect((await readCheckpoint(database.db, name)).prepare).toBe(20);
    expect(errors).toEqual([]);
    // Stopped: what comes next waits for the next consumer.
    await append(20);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await consumed()).toHaveLength(20);
    expect(await other.catchUp()).toBe(1);
  });

  it("makes a catch-up wait for its own subscription's page in this process, instead of finding the consumer busy", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let holding = false;
    const consumer = new CheckpointedConsumer(
      database.db,
      log,
      name,
      {
        apply: async (trx, events) => {
          if (!holding) {
            holding = true; // the subscription's first page, held inside its transaction
            await gate;
          }
          await insert(name)(trx, events);
        },
      },
      100,
    );
    const following = consumer.follow();
    for (const started = Date.now(); !holding;) {
      if (Date.now() - started > 10_000) throw new Error('the subscription never delivered');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    let returned = false;
    const catchingUp = consumer.catchUp().then(() => (returned = true));
    try {
      await new Promise((resolve) => setTimeout(resolve, 150));
      // Busy, it would have returned at once with nothing done (native PostgreSQL: another connection).
      expect(returned).toBe(false);
    } finally {
      release(); // whatever the assertion found, nothing stays held
      await catchingUp;
      await following.stop();
    }
    expect(await consumed()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('replays a page whose prepare or apply failed: nothing skipped, nothing doubled', async () => {
    let failPrepare = true;
    let failApply = true;
    const consumer = new CheckpointedConsumer<number[]>(
      database.db,
      log,
      name,
      {
        prepare: async (events) => {
          if (failPrepare && events[0]!.globalPosition > 3) throw new Error('embedder down');
          return events.map((e) => e.globalPosition);
        },
        apply: async (trx, events, prepared) => {
          expect(prepared).toEqual(events.map((e) => e.globalPosition));
          await insert(name)(trx, events);
          if (failApply && events[0]!.globalPosition > 6) throw new Error('crash after the rows, before the checkpoint');
        },
      },
      3,
    );
    await expect(consumer.catchUp()).rejects.toThrow('embedder down');
    expect(await consumed()).toEqual([0, 1, 2]);
    failPrepare = false;
    await expect(consumer.catchUp()).rejects.toThrow('crash after the rows');
    expect(await consumed()).toEqual([0, 1, 2, 3, 4, 5]);
    expect((await readCheckpoint(database.db, name)).prepare).toBe(6);
    failApply = false;
    await consumer.catchUp();
    expect(await consumed()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('drops its page when another consumer of the same name holds it or applied it first', async () => {
    const mine = new CheckpointedConsumer(database.db, log, name, { apply: insert(name) }, 4);
    let release!: () => void;
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    // The other one stops inside its transaction, holding the lock, until released.
    const other = new CheckpointedConsumer(
      database.db,
      log,
      name,
      {
        apply: async (trx, events) => {
          await insert(name)(trx, events);
          holding();
          await new Promise<void>((resolve) => (release = resolve));
        },
      },
      4,
    );
    if (backend === 'postgres') {
      const otherRun = other.page();
      await held;
      expect(await mine.page()).toEqual({ done: true, events: 0 }); // busy: it leaves the page to the holder
      release();
      await otherRun;
      expect(await consumed()).toEqual([0, 1, 2, 3]);
    }
    // Moved while it prepared: its work is dropped, and it reads on from where the other left off.
    let once = true;
    const slow = new CheckpointedConsumer(
      database.db,
      log,
      name,
      {
        prepare: async () => {
          if (once) {
            once = false;
            await new CheckpointedConsumer(database.db, log, name, { apply: insert(name) }, 4).page();
          }
        },
        apply: insert(name),
      },
      4,
    );
    await slow.catchUp();
    expect(await consumed()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
