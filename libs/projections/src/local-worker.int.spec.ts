/**
 * The in-process worker (FACTLEDGER_WORKERS=internal): a job that follows the log applies new
 * events as they land, with no pass needed; the other jobs run once a pass, and one that fails
 * is reported without stopping the rest; `stop` ends everything at once. The log is the
 * in-memory store; the rows and the checkpoint are in PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { createTestDatabase, InMemoryEventStore, type RecordedEvent, type TestDatabase, testAppendContext, testBackends } from '@factledger/store';
import { sql } from 'kysely';
import { CheckpointedConsumer, readCheckpoint } from './checkpointed-consumer';
import { LocalWorker } from './local-worker';

const ctx = testAppendContext({ tenant: 't' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testBackends())('LocalWorker on %s', (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    await sql`CREATE TABLE followed_here (position bigint PRIMARY KEY, n int)`.execute(database.db);
  });
  afterAll(() => database.close());

  it('follows the log between passes, runs the other jobs once a pass, and stops at once', async () => {
    const log = new InMemoryEventStore();
    const append = (n: number) => log.append(ctx, [{ streamId: 's', expectedVersion: 'any', events: [{ eventId: randomUUID(), type: 'Tested', data: { n } }] }]);
    for (let n = 0; n < 3; n++) await append(n);
    const name = `local-${randomUUID().slice(0, 8)}`;
    const consumer = new CheckpointedConsumer(database.db, log, name, {
      apply: async (trx, events: RecordedEvent[]) => {
        for (const e of events) await sql`INSERT INTO followed_here (position, n) VALUES (${e.globalPosition}, ${(e.data as { n: number }).n})`.execute(trx);
      },
    });
    let followedRuns = 0;
    let passes = 0;
    const errors: string[] = [];
    const worker = new LocalWorker([
      { name, run: async () => void followedRuns++, follow: (onError) => consumer.follow({ onError }) },
      {
        name: 'failing',
        run: async () => {
          throw new Error('this pass fails');
        },
      },
      { name: 'counted', run: async () => void passes++ },
    ]);
    const applied = async () => (await sql<{ n: number }>`SELECT n FROM followed_here ORDER BY position`.execute(database.db)).rows.map((r) => r.n);
    const until = async (n: number) => {
      for (const started = Date.now(); (await applied()).length < n; ) {
        if (Date.now() - started > 10_000) throw new Error(`timed out at ${(await applied()).length} of ${n}`);
        await sleep(10);
      }
    };
    // A pass every 60 s: the first runs at start; what lands later within the test came through the subscription.
    worker.start(60_000, (error) => errors.push(String(error)));
    worker.start(60_000, (error) => errors.push(`second start: ${String(error)}`));
    await until(3);
    for (let n = 3; n < 8; n++) await append(n);
    await until(8);
    expect(await applied()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(followedRuns).toBe(0);
    expect(passes).toBe(1);
    expect(errors).toEqual(['Error: this pass fails']);
    const stopped = Date.now();
    await worker.stop();
    expect(Date.now() - stopped).toBeLessThan(5_000);
    await append(8);
    await sleep(300);
    expect(await applied()).toHaveLength(8);
    expect((await readCheckpoint(database.db, name)).prepare).toBe(8);
  });
});
