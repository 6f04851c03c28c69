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
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';

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
    const functions = (
      await sql<{ name: string }>`
      SELECT p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = current_schema() AND p.proname LIKE 'fl\\_%' ORDER BY 1`.execute(database.db)
    ).rows.map((r) => r.name);
    expect(functions).toEqual(
      readdirSync(join(dir, 'functions'))
        .map((f) => f.replace(/\.sql$/, ''))
        .sort(),
    );

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

  it('gives every memory of a database migrated from before 028 the time it was said: the time it was recorded, on its row, its read view and its recall index row', async () => {
    const existing = await createTestDatabase(backend, { migrate: false });
    const before = mkdtempSync(join(tmpdir(), 'fl-migrations-'));
    try {
      cpSync(defaultMigrationsDir(), before, { recursive: true });
      rmSync(join(before, '028_said_at.sql'));
      await migrate(existing.db, before);
      const memory = (id: string, recordedAt: string) => sql`
        INSERT INTO fl_memories (tenant, memory_id, stream_id, kind, scope, scope_key, text, type, original_type, speaker, authority, cardinality, core, status,
          valid_from, confirmations, quarantined, corrected, withdrawn, retracted, overruled, recorded_at, updated_at, last_position)
        VALUES ('t', ${id}, ${`prose:${id}`}, 'prose', '{}', '', ${`memory ${id}`}, 'fact', 'fact', 'user', 0, 'one', false, 'active',
          ${recordedAt}::timestamptz, 1, false, false, false, false, false, ${recordedAt}::timestamptz, ${recordedAt}::timestamptz, 1)`;
      await memory('m1', '2026-03-01T10:00:00Z').execute(existing.db);
      await memory('m2', '2026-11-20T08:30:00Z').execute(existing.db);
      await sql`INSERT INTO fl_recall_index (tenant, memory_id, model, dimensions, embedding, text, recorded_at, kind)
        VALUES ('t', 'm2', 'test', 3, '[1,0,0]', 'memory m2', '2026-11-20T08:30:00Z', 'prose')`.execute(existing.db);

      expect(await migrate(existing.db, defaultMigrationsDir())).toEqual(['028_said_at.sql']);
      const memories = await sql<{ memory_id: string; said_at: Date; same: boolean }>`
        SELECT memory_id, said_at, said_at = recorded_at AS same FROM fl_read_memories ORDER BY memory_id`.execute(existing.db);
      expect(memories.rows.map((r) => [r.memory_id, r.said_at.toISOString(), r.same])).toEqual([
        ['m1', '2026-03-01T10:00:00.000Z', true],
        ['m2', '2026-11-20T08:30:00.000Z', true],
      ]);
      const indexed = await sql<{ said_at: Date }>`SELECT said_at FROM fl_recall_index WHERE memory_id = 'm2'`.execute(existing.db);
      expect(indexed.rows.map((r) => r.said_at.toISOString())).toEqual(['2026-11-20T08:30:00.000Z']);
      // The neighbours index follows the renamed column.
      const turns = await sql<{ def: string }>`SELECT pg_get_indexdef('fl_recall_index_turns'::regclass) AS def`.execute(existing.db);
      expect(turns.rows[0]!.def).toContain('said_at');
      // A memory is never without it from now on.
      await expect(sql`UPDATE fl_memories SET said_at = NULL WHERE memory_id = 'm1'`.execute(existing.db)).rejects.toThrow(/null/i);
    } finally {
      await existing.close();
      rmSync(before, { recursive: true, force: true });
    }
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
