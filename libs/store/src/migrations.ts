/**
 * Applies the numbered SQL files of `migrations/` in order, each in its own transaction, and
 * records them in `fl_migrations`. Plain SQL files rather than Kysely's Migrator (which loads
 * JS modules) so that a DBA can read and run the same files by hand.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { type DatabaseOptions, openDatabase } from './database';
import { MissingExtensionError } from './errors';
import { type Executor, slice, type StoreTables } from './schema';

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

/**
 * The database functions, one file each in `migrations/functions/`: their current definitions
 * (`CREATE OR REPLACE`). A numbered migration never defines a function; a change to one is one
 * diff, to its file. Each is applied when its checksum differs from the one recorded, before the
 * numbered migrations pending (a trigger they create needs its function), in the same transaction.
 * A function body that names a table must be plpgsql (checked when it runs, not when it is made).
 */
export function listFunctions(dir = defaultMigrationsDir()): { name: string; sql: string; checksum: string }[] {
  const folder = join(dir, 'functions');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => {
      const text = readFileSync(join(folder, f), 'utf8');
      return { name: `functions/${f}`, sql: text, checksum: createHash('sha256').update(text).digest('hex') };
    });
}

/** What fl_migrations records, by name; reading only (a database never migrated records nothing). */
async function recorded(db: Kysely<StoreTables>): Promise<Map<string, string | null>> {
  const shape = await sql<{ has_table: boolean; has_checksum: boolean }>`
    SELECT to_regclass('fl_migrations') IS NOT NULL AS has_table,
      EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('fl_migrations') AND attname = 'checksum' AND NOT attisdropped) AS has_checksum`.execute(db);
  const { has_table: table, has_checksum: checksum } = shape.rows[0]!;
  if (!table) return new Map();
  const rows = await db
    .selectFrom('fl_migrations')
    .select(['name', (checksum ? sql<string | null>`checksum` : sql<string | null>`NULL::text`).as('checksum')])
    .orderBy('name')
    .execute();
  return new Map(rows.map((r) => [r.name, r.checksum]));
}

export async function appliedMigrations(db: Executor): Promise<string[]> {
  return [...(await recorded(slice(db))).keys()];
}

/** What is not applied yet: numbered migrations missing, function files whose checksum changed. */
async function toApply(db: Kysely<StoreTables>, dir: string) {
  const done = await recorded(db);
  return {
    functions: listFunctions(dir).filter((f) => done.get(f.name) !== f.checksum),
    numbered: listMigrations(dir).filter((m) => !done.has(m.name)),
  };
}

/**
 * Applies what is missing, in one transaction (all or nothing: functions first, then the numbered
 * migrations in order); returns the names applied now. Safe to run concurrently (advisory lock).
 */
export async function migrate(database: Executor, dir = defaultMigrationsDir()): Promise<string[]> {
  const db: Kysely<StoreTables> = slice(database);
  const first = await toApply(db, dir);
  if (first.functions.length + first.numbered.length === 0) return [];
  await requireExtensions(db, first.numbered);
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(4242001)`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS fl_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(trx);
    await sql`ALTER TABLE fl_migrations ADD COLUMN IF NOT EXISTS checksum text`.execute(trx);
    const { functions, numbered } = await toApply(trx, dir); // as it stands once the lock is ours
    for (const f of functions) {
      await sql.raw(f.sql).execute(trx);
      await trx
        .insertInto('fl_migrations')
        .values({ name: f.name, checksum: f.checksum })
        .onConflict((oc) => oc.column('name').doUpdateSet({ checksum: (eb) => eb.ref('excluded.checksum'), applied_at: sql<Date>`now()` }))
        .execute();
    }
    for (const m of numbered) {
      await sql.raw(m.sql).execute(trx);
      await trx.insertInto('fl_migrations').values({ name: m.name }).execute();
    }
    return [...functions, ...numbered].map((x) => x.name);
  });
}

/** Opens the database `options` name, applies what is pending (migrate), and closes it again. */
export async function migrateDatabase(options: DatabaseOptions): Promise<string[]> {
  const database = await openDatabase(options);
  try {
    return await migrate(database.db);
  } finally {
    await database.close();
  }
}

/**
 * The extensions the pending migrations create (`CREATE EXTENSION … name`) that the server does
 * not have at all: one MissingExtensionError naming them all, before anything is applied, instead
 * of a failed migration's stack trace.
 */
async function requireExtensions(db: Kysely<StoreTables>, pending: { sql: string }[]): Promise<void> {
  const wanted = [...new Set(pending.flatMap((m) => [...m.sql.matchAll(/CREATE\s+EXTENSION\s+(?:IF\s+NOT\s+EXISTS\s+)?"?([a-z0-9_]+)"?/gi)].map((x) => x[1]!.toLowerCase())))];
  if (wanted.length === 0) return;
  const { rows } = await sql<{ name: string }>`SELECT name FROM pg_available_extensions WHERE name = ANY(${wanted})`.execute(db);
  const missing = wanted.filter((w) => !rows.some((r) => r.name === w));
  if (missing.length) throw new MissingExtensionError(missing);
}

/** Names of what migrate would apply (empty when the schema is ready). */
export async function pendingMigrations(db: Executor, dir = defaultMigrationsDir()): Promise<string[]> {
  const { functions, numbered } = await toApply(slice(db), dir);
  return [...functions, ...numbered].map((x) => x.name);
}
