/**
 * The leased worker with a job that follows the log: while it holds the job's lease, new events
 * are applied as they land through the store's subscription (no pass of the worker needed), and
 * once it stops, nothing more is applied. The log is the in-memory store, as a log kept outside
 * PostgreSQL would be; the lease, the rows and the checkpoint are in PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { createTestDatabase, InMemoryEventStore, type RecordedEvent, type TestDatabase, testAppendContext, testBackends } from '@factledger/store';
import { sql } from 'kysely';
import { CheckpointedConsumer, readCheckpoint } from './checkpointed-consumer';
import { LeasedWorker } from './leased-worker';

const ctx = testAppendContext({ tenant: 't' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testBackends())('LeasedWorker on %s', (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    await sql`CREATE TABLE followed (position bigint PRIMARY KEY, n int)`.execute(database.db);
  });
  afterAll(() => database.close());

  it('follows a job it holds through a subscription, and stops following when it stops', async () => {
    const log = new InMemoryEventStore();
    const append = (n: number) => log.append(ctx, [{ streamId: 's', expectedVersion: 'any', events: [{ eventId: randomUUID(), type: 'Tested', data: { n } }] }]);
    for (let n = 0; n < 3; n++) await append(n);
    const name = `follow-${randomUUID().slice(0, 8)}`;
    const consumer = new CheckpointedConsumer(database.db, log, name, {
      apply: async (trx, events: RecordedEvent[]) => {
        for (const e of events) await sql`INSERT INTO followed (position, n) VALUES (${e.globalPosition}, ${(e.data as { n: number }).n})`.execute(trx);
      },
    });
    let passes = 0;
    const errors: unknown[] = [];
    const leases: string[] = [];
    // A pass every 60 s: whatever is applied within the test came through the subscription.
    const worker = new LeasedWorker(
      database,
      [{ name, run: async () => void passes++, follow: (onError) => consumer.follow({ onError }) }],
      { intervalMs: 60_000, onError: (error) => errors.push(error), onLease: (job, held) => leases.push(`${held ? 'holding' : 'lost'} ${job}`) },
    );
    const applied = async () => (await sql<{ n: number }>`SELECT n FROM followed ORDER BY position`.execute(database.db)).rows.map((r) => r.n);
    const until = async (n: number) => {
      for (const started = Date.now(); (await applied()).length < n; ) {
        if (Date.now() - started > 10_000) throw new Error(`timed out at ${(await applied()).length} of ${n}`);
        await sleep(10);
      }
    };
    worker.start();
    await until(3);
    for (let n = 3; n < 8; n++) await append(n);
    await until(8);
    expect(await applied()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(passes).toBe(0);
    expect(worker.holding).toEqual([name]);
    // Stopping ends the wait between passes and the subscription at once, not 60 s later.
    const stopped = Date.now();
    await worker.stop();
    expect(Date.now() - stopped).toBeLessThan(5_000);
    await append(8);
    await sleep(300);
    expect(await applied()).toHaveLength(8);
    expect((await readCheckpoint(database.db, name)).prepare).toBe(8);
    expect(errors).toEqual([]);
    expect(leases).toEqual([`holding ${name}`, `lost ${name}`]);
  });
});
