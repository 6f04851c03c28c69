/**
 * The log's hash chain (migrations/018): it verifies over honest appends, and an event altered,
 * deleted or inserted behind the product's back (as a superuser, with the triggers disabled) is
 * found at the first position it breaks.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AppendContext } from './event-store.port';
import { PostgresEventStore } from './postgres-event-store';
import { createTestDatabase, type TestDatabase, testBackends } from './test-database';

const ctx = (over: Partial<AppendContext> = {}): AppendContext => ({
  tenant: 'chain',
  commandId: null,
  causationId: null,
  correlationId: null,
  batch: null,
  recordedAt: new Date('2026-12-01T00:00:00Z'),
  ...over,
});
const ev = (n: number) => ({ eventId: randomUUID(), type: 'Tested', data: { n, text: `event ${n} ünïcode 대전` } });

describe.each(testBackends())('The log hash chain on %s', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let positions: number[];

  /** A fresh log of 3 appends (1, 3 and 2 events), each test on its own database. */
  beforeEach(async () => {
    database = await createTestDatabase(backend);
    store = new PostgresEventStore(database.db);
    positions = [];
    for (const [i, count] of [1, 3, 2].entries()) {
      const r = await store.append(ctx({ actor: i === 1 ? 'key-1' : null, batch: i === 2 ? 'b' : null }), [{ streamId: `s${i}`, expectedVersion: 'no-stream', events: Array.from({ length: count }, (_, k) => ev(10 * i + k)) }]);
      positions.push(...r.positions);
    }
  });
  afterEach(() => database.close());

  /** Runs statements the way someone with database access would: triggers off, then on again. */
  async function behindTheBack(statement: ReturnType<typeof sql>): Promise<void> {
    await database.db.transaction().execute(async (trx) => {
      await sql`ALTER TABLE fl_events DISABLE TRIGGER USER`.execute(trx);
      await statement.execute(trx);
      await sql`ALTER TABLE fl_events ENABLE TRIGGER USER`.execute(trx);
    });
  }

  it('verifies the honest log, page by page, and gives the last event hash as its head', async () => {
    const whole = await store.verify();
    const paged = await store.verify({ pageSize: 2 });
    const last = (await sql<{ hash: Buffer }>`SELECT hash FROM fl_events ORDER BY global_position DESC LIMIT 1`.execute(database.db)).rows[0]!.hash;
    expect(whole).toEqual({ ok: true, events: 6, headPosition: positions.at(-1), head: Buffer.from(last).toString('hex') });
    expect(paged).toEqual(whole);
    expect(whole.ok && whole.head).toMatch(/^[0-9a-f]{64}$/);
  });

  it('finds an event whose data, actor or time was changed', async () => {
    for (const change of [sql`data = '{"n": 99}'::jsonb`, sql`actor = 'someone-else'`, sql`recorded_at = recorded_at + interval '1 second'`]) {
      const victim = positions[2]!;
      await behindTheBack(sql`UPDATE fl_events SET ${change} WHERE global_position = ${victim}`);
      expect(await store.verify()).toMatchObject({ ok: false, position: victim, problem: 'content', events: 2 });
      await database.close();
      database = await createTestDatabase(backend);
      store = new PostgresEventStore(database.db);
      positions = [];
      for (const [i, count] of [1, 3, 2].entries()) positions.push(...(await store.append(ctx(), [{ streamId: `s${i}`, expectedVersion: 'no-stream', events: Array.from({ length: count }, (_, k) => ev(10 * i + k)) }])).positions);
    }
  });

  it('finds a deleted event at the event after it', async () => {
    await behindTheBack(sql`DELETE FROM fl_events WHERE global_position = ${positions[3]!}`);
    expect(await store.verify()).toMatchObject({ ok: false, position: positions[4], problem: 'link' });
  });

  it('finds an inserted event: without a hash at once, with hashes chained to the event before it at the event after it', async () => {
    // A gap in the positions, as a refused append leaves one, for the forged row to sit in.
    const gap = Number((await sql<{ p: string }>`SELECT nextval(pg_get_serial_sequence('fl_events', 'global_position')) AS p`.execute(database.db)).rows[0]!.p);
    const after = (await store.append(ctx(), [{ streamId: 'late', expectedVersion: 'no-stream', events: [ev(77)] }])).position;
    await behindTheBack(sql`
      INSERT INTO fl_events (global_position, tenant, stream_id, stream_version, event_id, type, data, recorded_at, content_hash, hash)
      SELECT ${gap}, 'chain', 'forged', 0, gen_random_uuid(), 'Tested', '{"n": 0}'::jsonb, now(), c, sha256(p.hash || c)
      FROM (SELECT hash FROM fl_events WHERE global_position < ${gap} ORDER BY global_position DESC LIMIT 1) p,
        LATERAL (SELECT sha256(fl_event_content(${gap}, 'chain', 'forged', 0, gen_random_uuid(), 'Tested', '{"n": 0}'::jsonb, NULL, NULL, NULL, NULL, now(), NULL)) AS c) h`);
    const found = await store.verify();
    // The forged row's own content hash was made from another uuid than the one stored: found at once, or at the event after it.
    expect(found.ok).toBe(false);
    expect([gap, after]).toContain(!found.ok && found.position);

    await behindTheBack(sql`DELETE FROM fl_events WHERE global_position = ${gap}`);
    expect(await store.verify()).toMatchObject({ ok: true });
    await behindTheBack(sql`INSERT INTO fl_events (global_position, tenant, stream_id, stream_version, event_id, type, data, recorded_at) VALUES (${gap}, 'chain', 'forged', 0, gen_random_uuid(), 'Tested', '{}'::jsonb, now())`);
    expect(await store.verify()).toMatchObject({ ok: false, position: gap, problem: 'missing' });
  });

  it('finds an inserted event hashed exactly as the ledger would, at the event after it', async () => {
    const gap = Number((await sql<{ p: string }>`SELECT nextval(pg_get_serial_sequence('fl_events', 'global_position')) AS p`.execute(database.db)).rows[0]!.p);
    const after = (await store.append(ctx(), [{ streamId: 'late', expectedVersion: 'no-stream', events: [ev(77)] }])).position;
    await behindTheBack(sql`
      INSERT INTO fl_events (global_position, tenant, stream_id, stream_version, event_id, type, data, recorded_at, content_hash, hash)
      SELECT ${gap}, 'chain', 'forged', 0, id, 'Tested', '{"n": 0}'::jsonb, at, c, sha256(p.hash || c)
      FROM (SELECT gen_random_uuid() AS id, now() AS at) v,
        LATERAL (SELECT hash FROM fl_events WHERE global_position < ${gap} ORDER BY global_position DESC LIMIT 1) p,
        LATERAL (SELECT sha256(fl_event_content(${gap}, 'chain', 'forged', 0, v.id, 'Tested', '{"n": 0}'::jsonb, NULL, NULL, NULL, NULL, v.at, NULL)) AS c) h`);
    expect(await store.verify()).toMatchObject({ ok: false, position: after, problem: 'link' });
  });

  it('keeps chaining across appends of several streams in one statement, and across the whole log', async () => {
    await store.append(ctx(), [
      { streamId: 'm1', expectedVersion: 'no-stream', events: [ev(1), ev(2)] },
      { streamId: 'm2', expectedVersion: 'no-stream', events: [ev(3)] },
    ]);
    expect(await store.verify({ pageSize: 3 })).toMatchObject({ ok: true, events: 9 });
  });
});
