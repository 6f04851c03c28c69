import { refreshStatistics } from '@factledger/store';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { sql } from 'kysely';
import { LEDGER_JOBS, type LedgerHandle, ledgerOn } from './create-ledger';

describe.each(testBackends())("the ledger's background jobs on %s", (backend) => {
  let database: TestDatabase;
  let handle: LedgerHandle;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    handle = ledgerOn(database);
  });
  afterAll(() => database.close());

  const reltuples = async (table: string): Promise<number> => Number((await sql<{ n: number }>`SELECT reltuples::float8 AS n FROM pg_class WHERE relname = ${table}`.execute(database.db)).rows[0]!.n);

  it('are the projections, the saga, the sealer and the statistics, the consumers of the log able to follow it', () => {
    expect(handle.jobs.map((j) => j.name)).toEqual(['facts', 'answers', 're-review', 'cascade', 'seal', 'statistics']);
    expect(handle.jobs.map((j) => j.name)).toEqual([...LEDGER_JOBS]);
    expect(handle.jobs.filter((j) => j.follow).map((j) => j.name)).toEqual(['facts', 'answers', 're-review', 'cascade']);
  });

  it('analyzes the fact tables once they hold rows, then looks again only 10 s later', async () => {
    const statistics = handle.jobs.find((j) => j.name === 'statistics')!;
    const ops = Array.from({ length: 120 }, (_, i) => ({ assert: { subject: `person ${i}`, relation: 'city', value: `City ${i}` } }));
    await handle.ledger.writeMany('t', ops);
    expect(await reltuples('fl_fact_history')).toBeLessThan(120);
    const analyzed = (await statistics.run()) as string[];
    expect(analyzed).toEqual(expect.arrayContaining(['fl_fact_history', 'fl_memories', 'fl_events']));
    expect(await reltuples('fl_fact_history')).toBe(120);
    expect(await reltuples('fl_memories')).toBe(120);
    const more = Array.from({ length: 480 }, (_, i) => ({ assert: { subject: `person ${i + 120}`, relation: 'city', value: `City ${i}` } }));
    await handle.ledger.writeMany('t', more);
    expect(await statistics.run()).toEqual([]);
    expect(await reltuples('fl_memories')).toBe(120);
    expect(await refreshStatistics(database)).toEqual(expect.arrayContaining(['fl_fact_history', 'fl_memories']));
  });
});
