/**
 * Planner statistics kept current by the ledger itself, one pass at a time (the `statistics`
 * worker job). The planner picks its indexes from them: with none, every lookup of a tenant looks
 * like one row, and recall's visibility check over 300 memories walked the tenant's whole history
 * once per candidate (82 ms a recall on native, 100 ms on PGlite, against 12 and 24 ms analyzed).
 *
 * PGlite has no autovacuum and keeps no activity counters, so nothing else would ever analyze or
 * vacuum its tables; native PostgreSQL's autovacuum analyzes a table only once 50 rows and 10% of
 * it have changed, and looks once a minute. So a table is analyzed here when it has rows and was
 * never analyzed, or has grown by a fifth (and four pages) since its last analysis, measured by
 * its size on disk against the size recorded then. On PGlite it is vacuumed in the same pass
 * (dead row versions would otherwise stay forever); on native PostgreSQL autovacuum does that.
 */
import { sql } from 'kysely';
import type { Database } from './database';

/** Analyzes (on PGlite also vacuums) the tables of the current schema that need it; returns their names. */
export async function refreshStatistics(database: Pick<Database, 'db' | 'backend'>): Promise<string[]> {
  const due = await sql<{ name: string }>`
    SELECT c.relname AS name
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind = 'r' AND n.nspname = current_schema() AND pg_relation_size(c.oid) > 0
      AND (c.reltuples < 0 OR pg_relation_size(c.oid) / current_setting('block_size')::int >= c.relpages * 1.2 + 4)
    ORDER BY 1`.execute(database.db);
  const done: string[] = [];
  for (const { name } of due.rows) {
    try {
      if (database.backend === 'pglite') await sql`VACUUM (ANALYZE) ${sql.id(name)}`.execute(database.db);
      else await sql`ANALYZE ${sql.id(name)}`.execute(database.db);
      done.push(name);
    } catch (error) {
      // Dropped since the list was read (a rebuild's swap): nothing left to analyze.
      if ((error as { code?: string }).code !== '42P01') throw error;
    }
  }
  return done;
}
