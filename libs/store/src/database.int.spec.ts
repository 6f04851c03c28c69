import { createServer, type Server, type Socket, connect } from 'node:net';
import { sql } from 'kysely';
import { openDatabase, PREPARED, SESSION_SETTINGS } from './database';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';

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

  it('prepares a statement marked PREPARED once on its connection, and no other statement', async () => {
    // One transaction: one connection, whose prepared statements pg_prepared_statements lists.
    const listed = await database.db.transaction().execute(async (trx) => {
      const marked = (n: number) => sql<{ n: number }>`${PREPARED}SELECT ${n}::int + 1 AS n, 'fl-prepared-probe' AS probe`.execute(trx);
      const answers = [await marked(1), await marked(41)].map((r) => r.rows[0]!.n);
      await sql`SELECT 'fl-unmarked-probe' AS probe`.execute(trx);
      const rows = await sql<{ statement: string; runs: number }>`
        SELECT statement, generic_plans + custom_plans AS runs FROM pg_prepared_statements WHERE statement LIKE '%-probe%'`.execute(trx);
      return { answers, rows: rows.rows };
    });
    expect(listed.answers).toEqual([2, 42]);
    expect(listed.rows).toHaveLength(1);
    expect(listed.rows[0]).toMatchObject({ statement: expect.stringContaining('fl-prepared-probe'), runs: 2 });
  });
});

// Found by the reliability suite's database-faults cell: a backend terminated under a checked-out
// connection emitted an 'error' nobody listened to, and the whole server process died.
(process.env.FL_PG_ADMIN_URL ? describe : describe.skip)('Database on native PostgreSQL, its connections ended by the server', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(() => database.close());

  it('lives through a held and an idle connection terminated, and answers on new ones', async () => {
    // Two connections: one left idle in the pool, one held below.
    await Promise.all([sql`SELECT pg_sleep(0.05)`.execute(database.db), sql`SELECT pg_sleep(0.05)`.execute(database.db)]);
    let release!: () => void;
    const held = database.session(async (s) => {
      await sql`SELECT 1`.execute(s.db);
      await new Promise<void>((resolve) => (release = resolve));
      return sql`SELECT 1`.execute(s.db).then(
        () => 'answered',
        (error: Error) => error.message,
      );
    });
    await new Promise((r) => setTimeout(r, 50));
    const admin = await createTestDatabase('postgres', { migrate: false });
    try {
      const ended = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${database.name} AND pid <> pg_backend_pid()) t`.execute(admin.db);
      expect(ended.rows[0]!.n).toBeGreaterThanOrEqual(2);
    } finally {
      await admin.close();
    }
    await new Promise((r) => setTimeout(r, 200));
    release();
    // The work on the ended connection fails, as itself; the process and the pool carry on.
    expect(await held).toMatch(/terminat|not queryable|Connection/);
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(database.db)).rows).toEqual([{ one: 1 }]);
  });

  it('drops a connection cut while its session is set up, so that the pool still ends (a clean stop that never ended)', async () => {
    // A proxy in front of the database that, while `cutting`, cuts each new connection at its
    // first query (after the startup handshake): the session settings' query.
    let cutting = true;
    const target = new URL(database.url!);
    const proxy: Server = createServer((downstream: Socket) => {
      const upstream = connect(Number(target.port || 5432), target.hostname);
      let startup = true;
      downstream.on('data', (chunk: Buffer) => {
        if (!startup && cutting && chunk[0] === 0x51 /* Query */) {
          downstream.destroy();
          upstream.destroy();
          return;
        }
        startup = false;
        upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => downstream.write(chunk));
      for (const [a, b] of [
        [downstream, upstream],
        [upstream, downstream],
      ] as const) {
        a.on('error', () => b.destroy());
        a.on('close', () => b.destroy());
      }
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const url = new URL(target);
    url.host = `127.0.0.1:${(proxy.address() as { port: number }).port}`;
    const cut = await openDatabase({ url: url.toString() });
    try {
      await expect(sql`SELECT 1`.execute(cut.db)).rejects.toThrow(/terminated|Connection/);
      cutting = false;
      expect((await sql<{ ef: string }>`SELECT current_setting('hnsw.ef_search') AS ef`.execute(cut.db)).rows).toEqual([{ ef: SESSION_SETTINGS['hnsw.ef_search'] }]);
      // Ending the pool waits for every connection it counts as in use: none may be left.
      const ended = await Promise.race([cut.db.destroy().then(() => 'ended'), new Promise((resolve) => setTimeout(() => resolve('still waiting after 3 s'), 3000))]);
      expect(ended).toBe('ended');
    } finally {
      await cut.close();
      proxy.close();
    }
  });
});
