import { sql } from 'kysely';
import { refreshStatistics } from './statistics';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';

describe.each(testBackends())('refreshStatistics on %s', (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    await sql`CREATE TABLE stats_probe (id int PRIMARY KEY, tenant text NOT NULL, body text NOT NULL)`.execute(database.db);
    await sql`CREATE TABLE stats_empty (id int)`.execute(database.db);
  });
  afterAll(() => database.close());

  const reltuples = async (table: string): Promise<number> => Number((await sql<{ n: number }>`SELECT reltuples::float8 AS n FROM pg_class WHERE relname = ${table}`.execute(database.db)).rows[0]!.n);
  const fill = (from: number, to: number) => sql`INSERT INTO stats_probe SELECT g, 'acme', repeat('x', 200) FROM generate_series(${from}::int, ${to}::int) g`.execute(database.db);

  it('analyzes a table that has rows and no statistics, then again only once it has grown by a fifth', async () => {
    await refreshStatistics(database); // whatever the migrations left unanalyzed
    await fill(1, 300);
    expect(await reltuples('stats_probe')).toBeLessThan(0);
    expect(await refreshStatistics(database)).toEqual(['stats_probe']);
    expect(await reltuples('stats_probe')).toBe(300);
    // Unchanged, or grown by less than a fifth: nothing to do; an empty table is left alone.
    await fill(301, 310);
    expect(await refreshStatistics(database)).toEqual([]);
    expect(await reltuples('stats_probe')).toBe(300);
    await fill(311, 600);
    expect(await refreshStatistics(database)).toEqual(['stats_probe']);
    expect(await reltuples('stats_probe')).toBe(600);
    expect(await reltuples('stats_empty')).toBeLessThan(0);
  });
});
