/**
 * Migrations: the numbered files in order, and one current definition per database function in
 * migrations/functions/, applied again only when its file changes; all of a run in one transaction.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { MissingExtensionError } from './errors';
import { defaultMigrationsDir, listFunctions, listMigrations, migrate, pendingMigrations } from './migrations';
import { createTestDatabase, type TestDatabase, testBackends } from './test-database';

describe('migration files', () => {
  it('define every database function once, in migrations/functions/, and never in a numbered file', () => {
    for (const m of listMigrations()) expect(`${m.name}: ${/CREATE\s+(OR\s+REPLACE\s+)?FUNCTION/i.test(m.sql)}`).toBe(`${m.name}: false`);
    for (const f of listFunctions()) {
      const defined = [...f.sql.matchAll(/CREATE OR REPLACE FUNCTION (\w+)\s*\(/g)].map((x) => x[1]);
      expect(defined).toEqual([f.name.replace(/^functions\/|\.sql$/g, '')]);
    }
  });
});

describe.each(testBackends())('migrate on %s', (backend) => {
  let database: TestDatabase;
  const dir = mkdtempSync(join(tmpdir(), 'fl-migrations-'));
  beforeAll(async () => {
    cpSync(defaultMigrationsDir(), dir, { recursive: true });
    database = await createTestDatabase(backend, { migrate: false });
  });
  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies the functions and the numbered files once, then only a function whose file changed', async () => {
    const first = await migrate(database.db, dir);
    expect(first).toEqual([...listFunctions(dir).map((f) => f.name), ...listMigrations(dir).map((m) => m.name)]);
    expect(await migrate(database.db, dir)).toEqual([]);
    expect(await pendingMigrations(database.db, dir)).toEqual([]);

    // What the database holds is exactly the functions the folder defines.
    const functions = (await sql<{ name: string }>`
      SELECT p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = current_schema() AND p.proname LIKE 'fl\\_%' ORDER BY 1`.execute(database.db)).rows.map((r) => r.name);
    expect(functions).toEqual(readdirSync(join(dir, 'functions')).map((f) => f.replace(/\.sql$/, '')).sort());

    const file = join(dir, 'functions', 'fl_event_content.sql');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nCOMMENT ON FUNCTION fl_event_content IS 'changed';\n`);
    expect(await pendingMigrations(database.db, dir)).toEqual(['functions/fl_event_content.sql']);
    expect(await migrate(database.db, dir)).toEqual(['functions/fl_event_content.sql']);
    const comment = await sql<{ c: string }>`SELECT obj_description('fl_event_content'::regproc, 'pg_proc') AS c`.execute(database.db);
    expect(comment.rows[0]!.c).toBe('changed');
  });

  it('applies nothing of a run that fails: functions and numbered files go back together', async () => {
    const original = readFileSync(join(defaultMigrationsDir(), 'functions', 'fl_event_content.sql'), 'utf8');
    writeFileSync(join(dir, 'functions', 'fl_event_content.sql'), `${original}\nCOMMENT ON FUNCTION fl_event_content IS 'the failed run';\n`);
    writeFileSync(join(dir, '999_broken.sql'), 'CREATE TABLE fl_broken (x int); SELECT no_such_function();');
    await expect(migrate(database.db, dir)).rejects.toThrow(/no_such_function/);
    expect(await pendingMigrations(database.db, dir)).toEqual(['functions/fl_event_content.sql', '999_broken.sql']);
    const comment = await sql<{ c: string | null }>`SELECT obj_description('fl_event_content'::regproc, 'pg_proc') AS c`.execute(database.db);
    expect(comment.rows[0]!.c).toBe('changed'); // not 'the failed run': its function went back with it
    expect((await sql<{ t: string | null }>`SELECT to_regclass('fl_broken')::text AS t`.execute(database.db)).rows[0]!.t).toBeNull();
  });

  it('names an extension the server lacks, with how to install it, in one line, before anything is applied', async () => {
    const fresh = await createTestDatabase(backend, { migrate: false });
    const lacking = mkdtempSync(join(tmpdir(), 'fl-migrations-'));
    try {
      cpSync(defaultMigrationsDir(), lacking, { recursive: true });
      writeFileSync(join(lacking, '998_needs_an_extension.sql'), 'CREATE EXTENSION IF NOT EXISTS fl_no_such_extension;\nCREATE TABLE fl_after_it (x int);');
      const refused = migrate(fresh.db, lacking);
      await expect(refused).rejects.toBeInstanceOf(MissingExtensionError);
      await expect(refused).rejects.toMatchObject({ code: 'missing_extension', extensions: ['fl_no_such_extension'], message: expect.not.stringContaining('\n') });
      // Nothing applied: every migration still pending, not even the functions.
      expect(await pendingMigrations(fresh.db, lacking)).toEqual([...listFunctions(lacking).map((f) => f.name), ...listMigrations(lacking).map((m) => m.name)]);
    } finally {
      await fresh.close();
      rmSync(lacking, { recursive: true, force: true });
    }
    // pgvector's own hint, as the server lacking it would show it.
    expect(new MissingExtensionError(['vector']).message).toMatch(/^the PostgreSQL server lacks the extension vector \(pgvector: .*apt install postgresql-<major>-pgvector.*\); install it there/);
  });
});

