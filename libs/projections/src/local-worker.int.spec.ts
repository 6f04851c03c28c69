/**
 * The in-process worker (FACTLEDGER_WORKERS=internal): a job that follows the log applies new
 * events as they land, with no pass needed; the other jobs run once a pass, and one that fails
 * is reported without stopping the rest; `stop` ends everything at once. The log is the
 * in-memory store; the rows and the checkpoint are in PostgreSQL.
 */
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { readCheckpoint } from './checkpointed-consumer';
import { followedLog, sleep } from '@factledger/testing/followed-log';
import { LocalWorker } from './local-worker';

describe.each(testBackends())('LocalWorker on %s', (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(() => database.close());

  it('follows the log between passes, runs the other jobs once a pass, and stops at once', async () => {
    const { name, consumer, append, applied, until } = await followedLog(database, 'local', 3);
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
