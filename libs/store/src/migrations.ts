/**
 * Applies the numbered SQL files of `migrations/` in order, each in its own transaction, and
 * records them in `fl_migrations`. Plain SQL files rather than Kysely's Migrator (which loads
 * JS modules) so that a DBA can read and run the same files by hand.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Kysely, sql } from 'kysely';

/** The repository's `migrations/` folder, found from wherever this module was loaded (src or dist). */
export function defaultMigrationsDir(): string {
  let dir = __dirname;
  for (;;) {
    const candidate = join(dir, 'migrations');
    if (existsSync(join(dir, 'package.json')) && existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no migrations/ folder found above ${__dirname}`);
    dir = parent;
  }
}

export function listMigrations(dir = defaultMigrationsDir()): { name: string; sql: string }[] {
  return readdirSync(dir)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(dir, name), 'utf8') }));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function appliedMigrations(db: Kysely<any>): Promise<string[]> {
  await sql`CREATE TABLE IF NOT EXISTS fl_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(db);
  const rows = await sql<{ name: string }>`SELECT name FROM fl_migrations ORDER BY name`.execute(db);
  return rows.rows.map((r) => r.name);
}

/** Applies what is missing; returns the names applied now. Safe to run concurrently (advisory lock). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrate(db: Kysely<any>, dir = defaultMigrationsDir()): Promise<string[]> {
  const done = new Set(await appliedMigrations(db));
  const applied: string[] = [];
  for (const m of listMigrations(dir)) {
    if (done.has(m.name)) continue;
    await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(4242001)`.execute(trx);
      const again = await sql`SELECT 1 FROM fl_migrations WHERE name = ${m.name}`.execute(trx);
      if (again.rows.length) return;
      await sql.raw(m.sql).execute(trx);
      await sql`INSERT INTO fl_migrations (name) VALUES (${m.name})`.execute(trx);
      applied.push(m.name);
    });
  }
  return applied;
}

/** Names of migration files not yet applied (empty when the schema is ready). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function pendingMigrations(db: Kysely<any>, dir = defaultMigrationsDir()): Promise<string[]> {
  const done = new Set(await appliedMigrations(db));
  return listMigrations(dir)
    .map((m) => m.name)
    .filter((n) => !done.has(n));
}
