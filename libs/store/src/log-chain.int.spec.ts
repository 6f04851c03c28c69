/**
 * The log's hash chain (migrations/018, salted in 019): it verifies over honest appends and after an
 * erasure's rewrite, and an event altered,
 * deleted or inserted behind the product's back (as a superuser, with the triggers disabled), or a
 * hash of the chain altered, is found at the first position it breaks.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { type AppendContext, ERASURE_RECORDED } from './event-store.port';
import { PostgresEventStore } from './postgres-event-store';
import { createTestDatabase, type TestDatabase, testAppendContext, testBackends } from '@factledger/testing';

const ctx = (over: Partial<AppendContext> = {}): AppendContext => testAppendContext({ tenant: 'chain', ...over });
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
      const r = await store.append(ctx({ actor: i === 1 ? 'key-1' : null, batch: i === 2 ? 'b' : null }), [
        { streamId: `s${i}`, expectedVersion: 'no-stream', events: Array.from({ length: count }, (_, k) => ev(10 * i + k)) },
      ]);
      positions.push(...r.positions);
    }
  });
  afterEach(() => database.close());

  /** Runs statements the way someone with database access would: triggers off, then on again. */
  async function behindTheBack(statement: ReturnType<typeof sql>): Promise<void> {
    await database.db.transaction().execute(async (trx) => {
      await sql`ALTER TABLE fl_events DISABLE TRIGGER USER`.execute(trx);
      await sql`ALTER TABLE fl_event_chain DISABLE TRIGGER USER`.execute(trx);
      await sql`ALTER TABLE fl_event_salts DISABLE TRIGGER USER`.execute(trx);
      await statement.execute(trx);
      await sql`ALTER TABLE fl_event_salts ENABLE TRIGGER USER`.execute(trx);
      await sql`ALTER TABLE fl_event_chain ENABLE TRIGGER USER`.execute(trx);
      await sql`ALTER TABLE fl_events ENABLE TRIGGER USER`.execute(trx);
    });
  }

  it('seals every event into the chain, verifies the honest log page by page, and gives the last hash as its head', async () => {
    expect(await store.seal({ pageSize: 4 })).toBe(6);
    expect(await store.seal()).toBe(0);
    const whole = await store.verify();
    const paged = await store.verify({ pageSize: 2 });
    const last = (await sql<{ hash: Buffer }>`SELECT hash FROM fl_event_chain ORDER BY global_position DESC LIMIT 1`.execute(database.db)).rows[0]!.hash;
    expect(whole).toEqual({ ok: true, events: 6, headPosition: positions.at(-1), head: Buffer.from(last).toString('hex') });
    expect(paged).toEqual(whole);
    // Appends after a seal chain on from its head.
    await store.append(ctx(), [{ streamId: 'more', expectedVersion: 'no-stream', events: [ev(90), ev(91)] }]);
    expect(await store.verify({ pageSize: 3 })).toMatchObject({ ok: true, events: 8 });
  });

  it('leaves an event committed after its own seal to the next seal: not chained yet is not inserted behind its back', async () => {
    // An append that commits between verify's seal and its walk: one running beside it, or one
    // whose client was killed mid-statement while its server finished it (found by the
    // reliability suite's half-way cell, a triage apply killed as it wrote).
    const seal = store.seal.bind(store);
    store.seal = async (options) => {
      const sealed = await seal(options);
      await store.append(ctx(), [{ streamId: 'beside', expectedVersion: 'no-stream', events: [ev(88)] }]);
      return sealed;
    };
    expect(await store.verify()).toMatchObject({ ok: true, events: 6, headPosition: positions.at(-1) });
    store.seal = seal;
    expect(await store.verify()).toMatchObject({ ok: true, events: 7 });
  });

  it('finds a sealed event whose data, actor or time was changed', async () => {
    for (const change of [sql`data = '{"n": 99}'::jsonb`, sql`actor = 'someone-else'`, sql`recorded_at = recorded_at + interval '1 second'`]) {
      await store.seal();
      const victim = positions[2]!;
      await behindTheBack(sql`UPDATE fl_events SET ${change} WHERE global_position = ${victim}`);
      expect(await store.verify()).toMatchObject({ ok: false, position: victim, problem: 'content', events: 2 });
      await database.close();
      database = await createTestDatabase(backend);
      store = new PostgresEventStore(database.db);
      positions = [];
      for (const [i, count] of [1, 3, 2].entries())
        positions.push(...(await store.append(ctx(), [{ streamId: `s${i}`, expectedVersion: 'no-stream', events: Array.from({ length: count }, (_, k) => ev(10 * i + k)) }])).positions);
    }
  });

  it('finds a deleted event at its position', async () => {
    await store.seal();
    await behindTheBack(sql`DELETE FROM fl_events WHERE global_position = ${positions[3]!}`);
    expect(await store.verify()).toMatchObject({ ok: false, position: positions[3], problem: 'deleted' });
  });

  it('finds an event inserted among sealed ones, and a forged chain row at the link after it', async () => {
    // A gap in the positions, as a refused append leaves one, for the forged row to sit in.
    const gap = Number((await sql<{ p: string }>`SELECT nextval(pg_get_serial_sequence('fl_events', 'global_position')) AS p`.execute(database.db)).rows[0]!.p);
    const after = (await store.append(ctx(), [{ streamId: 'late', expectedVersion: 'no-stream', events: [ev(77)] }])).position;
    await store.seal();
    await behindTheBack(
      sql`INSERT INTO fl_events (global_position, tenant, stream_id, stream_version, event_id, type, data, recorded_at) VALUES (${gap}, 'chain', 'forged', 0, gen_random_uuid(), 'Tested', '{"n": 0}'::jsonb, now())`,
    );
    expect(await store.verify()).toMatchObject({ ok: false, position: gap, problem: 'missing' });

    // The same row with a salt and a chain row hashed exactly as the sealer would: the link after it breaks.
    await behindTheBack(sql`INSERT INTO fl_event_salts (global_position, salt) VALUES (${gap}, decode('00', 'hex'))`);
    await behindTheBack(sql`
      INSERT INTO fl_event_chain (global_position, content_hash, hash)
      SELECT e.global_position, c, sha256(p.hash || c)
      FROM fl_events e,
        LATERAL (SELECT sha256(decode('00', 'hex') || fl_event_content(e.global_position, e.tenant, e.stream_id, e.stream_version, e.event_id, e.type, e.data, e.command_id, e.causation_id, e.correlation_id, e.batch, e.recorded_at, e.actor)) AS c) h,
        LATERAL (SELECT hash FROM fl_event_chain WHERE global_position < e.global_position ORDER BY global_position DESC LIMIT 1) p
      WHERE e.global_position = ${gap}`);
    expect(await store.verify()).toMatchObject({ ok: false, position: after, problem: 'link' });
  });

  it('finds an altered hash of the chain itself', async () => {
    await store.seal();
    await behindTheBack(sql`UPDATE fl_event_chain SET hash = sha256(hash) WHERE global_position = ${positions[1]!}`);
    expect(await store.verify()).toMatchObject({ ok: false, position: positions[1], problem: 'link' });
  });

  /** Erases event positions[k]'s text the way the ledger's erasure does (EventStore.redact). */
  const erase = (k: number[]) =>
    store.redact(
      ctx({ actor: 'admin-key' }),
      k.map((i) => ({ position: positions[i]!, data: { erased: 'e1' } })),
      (hashes) => [{ streamId: 'erasure-e1', expectedVersion: 'no-stream', events: [{ eventId: randomUUID(), type: ERASURE_RECORDED, data: { erasureId: 'e1', redacted: hashes } }] }],
    );

  it('still verifies after an erasure rewrote sealed and unsealed events, and keeps their shape', async () => {
    await store.seal({ pageSize: 2 });
    await store.append(ctx(), [{ streamId: 'late', expectedVersion: 'no-stream', events: [ev(50)] }]);
    positions.push(await store.head());
    const before = (
      await sql<{ global_position: string; type: string; stream_id: string; recorded_at: Date }>`SELECT global_position, type, stream_id, recorded_at FROM fl_events ORDER BY 1`.execute(database.db)
    ).rows;
    const result = await erase([1, 6]); // one sealed before, one appended after the last seal
    const after = (
      await sql<{ global_position: string; type: string; stream_id: string; recorded_at: Date; data: unknown; actor: string | null }>`SELECT * FROM fl_events ORDER BY global_position`.execute(
        database.db,
      )
    ).rows;
    expect(after.slice(0, before.length).map(({ global_position, type, stream_id, recorded_at }) => ({ global_position, type, stream_id, recorded_at }))).toEqual(before);
    expect(after.filter((r) => JSON.stringify(r.data).includes('event ')).map((r) => Number(r.global_position))).toEqual(positions.filter((_, i) => i !== 1 && i !== 6));
    expect(after.at(-1)).toMatchObject({
      type: ERASURE_RECORDED,
      actor: 'admin-key',
      data: {
        redacted: [
          [positions[1], expect.stringMatching(/^[0-9a-f]{64}$/)],
          [positions[6], expect.any(String)],
        ],
      },
    });
    expect(result.positions).toHaveLength(1);
    // Their salts are gone, so their old content hashes can no longer be matched to a guess.
    const salted = (await sql<{ p: string }>`SELECT global_position AS p FROM fl_event_salts ORDER BY 1`.execute(database.db)).rows.map((r) => Number(r.p));
    expect(salted).toEqual(positions.filter((_, i) => i !== 1 && i !== 6));
    expect(await store.verify({ pageSize: 3 })).toMatchObject({ ok: true, events: 8 });
  });

  it('finds a rewritten event altered after its erasure, and a salt taken from an event no erasure names', async () => {
    await erase([2]);
    await behindTheBack(sql`UPDATE fl_events SET data = '{"erased": "e1", "n": 1}'::jsonb WHERE global_position = ${positions[2]!}`);
    expect(await store.verify()).toMatchObject({ ok: false, position: positions[2], problem: 'content' });
    await behindTheBack(sql`UPDATE fl_events SET data = '{"erased": "e1"}'::jsonb WHERE global_position = ${positions[2]!}`);
    expect(await store.verify()).toMatchObject({ ok: true });
    await behindTheBack(sql`DELETE FROM fl_event_salts WHERE global_position = ${positions[4]!}`);
    expect(await store.verify()).toMatchObject({ ok: false, position: positions[4], problem: 'content' });
  });

  it('rewrites nothing of another tenant, nothing but data, and nothing outside an erasure', async () => {
    const other = await store.append(ctx({ tenant: 'other' }), [{ streamId: 'o', expectedVersion: 'no-stream', events: [ev(70)] }]);
    await expect(
      store.redact(ctx(), [{ position: other.position, data: { erased: 'x' } }], () => [
        { streamId: 'erasure-x', expectedVersion: 'no-stream', events: [{ eventId: randomUUID(), type: ERASURE_RECORDED, data: { redacted: [] } }] },
      ]),
    ).rejects.toThrow(/not in its tenant/);
    expect((await store.readStream('other', 'o')).events[0]!.data).toMatchObject({ n: 70, text: 'event 70 ünïcode 대전' });
    expect(await store.readStream('chain', 'erasure-x')).toEqual({ version: -1, events: [] });
    await expect(sql`UPDATE fl_events SET data = '{}'::jsonb WHERE global_position = ${positions[0]!}`.execute(database.db)).rejects.toThrow(/append-only/);
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`SELECT set_config('factledger.erasing', 'on', true)`.execute(trx);
        await sql`UPDATE fl_events SET type = 'Other' WHERE global_position = ${positions[0]!}`.execute(trx);
      }),
    ).rejects.toThrow(/append-only/);
    await store.seal();
    await expect(sql`DELETE FROM fl_event_salts`.execute(database.db)).rejects.toThrow(/append-only/);
  });

  it('refuses in the database to update, delete or truncate the chain', async () => {
    await store.seal();
    await expect(sql`UPDATE fl_event_chain SET hash = hash`.execute(database.db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM fl_event_chain`.execute(database.db)).rejects.toThrow(/append-only/);
    await expect(sql`TRUNCATE fl_event_chain`.execute(database.db)).rejects.toThrow(/append-only/);
  });
});
