import { sql } from 'kysely';
import { SESSION_SETTINGS } from './database';
import { createTestDatabase, type TestDatabase, testBackends } from './test-database';

describe.each(testBackends())('Database on %s', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(() => database.close());

  it('runs every connection of db with the session settings, outside any transaction', async () => {
    // As many at once as the pool may open, so that more than one connection is asked (native).
    const seen = await Promise.all(
      Array.from({ length: 8 }, () =>
        sql<{ ef: string; scan: string; trgm: string }>`SELECT current_setting('hnsw.ef_search') AS ef, current_setting('hnsw.iterative_scan') AS scan,
          current_setting('pg_trgm.word_similarity_threshold') AS trgm, pg_sleep(0.05)`.execute(database.db),
      ),
    );
    for (const r of seen) {
      expect(r.rows[0]).toMatchObject({
        ef: SESSION_SETTINGS['hnsw.ef_search'],
        scan: SESSION_SETTINGS['hnsw.iterative_scan'],
        trgm: SESSION_SETTINGS['pg_trgm.word_similarity_threshold'],
      });
    }
  });
});
