/**
 * The leased worker with a job that follows the log: while it holds the job's lease, new events
 * are applied as they land through the store's subscription (no pass of the worker needed), and
 * once it stops, nothing more is applied. The log is the in-memory store, as a log kept outside
 * PostgreSQL would be; the lease, the rows and the checkpoint are in PostgreSQL.
 */
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { readCheckpoint } from './checkpointed-consumer';
import { followedLog, sleep } from '@factledger/testing/followed-log';
import { LeasedWorker } from './leased-worker';

describe.each(testBackends())('LeasedWorker on %s', (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(() => database.close());

  it('follows a job it holds through a subscription, and stops following when it stops', async () => {
    const { name, consumer, append, applied, until } = await followedLog(database, 'follow', 3);
    let passes = 0;
    const errors: unknown[] = [];
    const leases: string[] = [];
    // A pass every 60 s: whatever is applied within the test came through the subscription.
    const worker = new LeasedWorker(database, [{ name, run: async () => void passes++, follow: (onError) => consumer.follow({ onError }) }], {
      intervalMs: 60_000,
      onError: (error) => errors.push(error),
      onLease: (job, held) => leases.push(`${held ? 'holding' : 'lost'} ${job}`),
    });
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
