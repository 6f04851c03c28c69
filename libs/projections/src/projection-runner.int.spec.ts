/**
 * The projection runner against a real database, on every backend: rebuild equals the live
 * read model, replays are no-ops, the checkpoint and status follow the log, read-your-writes
 * waits or fails with ProjectionLagError, and the database itself refuses overlapping current
 * versions of a key.
 */
import { randomUUID } from 'node:crypto';
import { type AssertMemory, decide, factStreamId, initialState, ManualClock } from '@factledger/domain';
import { type LedgerHandle, ledgerOn } from '@factledger/ledger';
import type { RecordedEvent, Session } from '@factledger/store';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { sql } from 'kysely';
import { Client } from 'pg';
import { ProjectionLagError } from './errors';
import { PostgresFactProjection } from './postgres-fact-projection';
import type { Projection } from './projection';
import { checkpointLag, ProjectionRunner } from './projection-runner';

const START = new Date('2026-12-01T00:00:00Z');

/** Every row of the read models, as the database prints it, in key order. */
async function dump(database: TestDatabase): Promise<{ memories: unknown[]; history: unknown[]; streams: unknown[] }> {
  const q = async (query: ReturnType<typeof sql>): Promise<unknown[]> => (await query.execute(database.db)).rows.map((r) => (r as { row: unknown }).row);
  return {
    memories: await q(sql`SELECT to_jsonb(m) AS row FROM fl_memories m ORDER BY tenant, memory_id`),
    // Ranges as text, so that an empty range or an inclusive bound shows as itself.
    history: await q(sql`
      SELECT to_jsonb(h) - 'valid' - 'tx' || jsonb_build_object('valid', valid::text, 'tx', tx::text) AS row
      FROM fl_fact_history h ORDER BY tenant, memory_id, opened_by`),
    streams: await q(sql`SELECT to_jsonb(s) AS row FROM fl_projected_streams s ORDER BY tenant, stream_id`),
  };
}

async function readWholeLog(handle: LedgerHandle): Promise<RecordedEvent[]> {
  return handle.store.readAll({ commit: '0', prepare: 0 }, 1_000_000);
}

/** Events of a fresh key, decided by the domain but appended straight to the store (no catch-up). */
async function appendDirectly(handle: LedgerHandle, tenant: string, values: string[], recordedAt: Date): Promise<number> {
  let position = 0;
  for (const value of values) {
    const key = { subject: `direct ${randomUUID().slice(0, 8)}`, relation: 'is', scope: {} };
    const command: AssertMemory = {
      kind: 'AssertMemory',
      memoryId: randomUUID(),
      memoryKind: 'fact',
      ...key,
      value,
      text: `${key.subject} is ${value}`,
      type: 'fact',
      speaker: 'tool',
      source: null,
      authority: 0,
      cardinality: 'one',
      core: false,
      validFrom: new Date('2026-01-01T00:00:00Z'),
      validTo: null,
      mode: 'update',
    };
    const { events } = decide(command, initialState());
    const result = await handle.store.append({ tenant, commandId: null, causationId: null, correlationId: null, batch: null, recordedAt }, [
      { streamId: factStreamId(key), expectedVersion: 'no-stream', events: events.map((e) => ({ eventId: randomUUID(), type: e.type, data: e.data })) },
    ]);
    position = result.position;
  }
  return position;
}

/**
 * A realistic life of two tenants on the same keys (so their streams share ids): supersessions,
 * a correction, an overruled and a reinforced assert, a set with a retraction, prose, quarantine,
 * restore (one of them back into an empty period), retype, retractions and rollbacks (one that
 * compensates two changes of one memory in one append).
 */
async function liveSequence(handle: LedgerHandle, clock: ManualClock): Promise<void> {
  const { ledger } = handle;
  const tick = (): void => clock.advance(60_000);
  for (const tenant of ['acme', 'globex']) {
    const other = tenant === 'globex';
    const lives = (value: string, more: Record<string, unknown> = {}) => ({ subject: 'Alice', relation: 'lives in', value, cardinality: 'one' as const, ...more });
    const likes = (value: string, more: Record<string, unknown> = {}) => ({ subject: 'alice', relation: 'likes', value, cardinality: 'many' as const, scope: { env: 'prod' }, ...more });
    tick();
    const berlin = await ledger.assert(tenant, lives(other ? 'Oslo' : 'Berlin', { validFrom: '2026-01-01' }));
    tick();
    expect((await ledger.assert(tenant, lives('Paris', { validFrom: '2026-03-01' }))).outcome).toBe('superseded');
    tick();
    const lyon = await ledger.assert(tenant, lives('Lyon', { validFrom: '2026-03-01', mode: 'correction' }));
    expect(lyon.outcome).toBe('corrected');
    tick();
    expect((await ledger.assert(tenant, lives('Rome', { validFrom: '2026-02-01', authority: -1 }))).outcome).toBe('overruled');
    tick();
    expect((await ledger.assert(tenant, lives(other ? 'oslo' : 'berlin', { validFrom: '2026-01-15', text: 'she said so again' }))).outcome).toBe('reinforced');
    tick();
    const tea = await ledger.assert(tenant, likes('tea', { validFrom: '2026-01-01' }));
    tick();
    const coffee = await ledger.assert(tenant, likes('coffee', { validFrom: '2026-02-01' }));
    tick();
    await ledger.assert(tenant, likes('Tea', { validFrom: '2026-02-01', text: 'tea, again' }));
    tick();
    expect((await ledger.retract(tenant, { subject: 'alice', relation: 'likes', scope: { env: 'prod' }, value: 'tea', validFrom: '2026-05-01' })).memoryId).toBe(tea.memoryId);
    tick();
    const prose = await ledger.assert(tenant, { text: 'Alice prefers meetings in the morning.' });
    tick();
    await ledger.quarantine(tenant, { memoryId: lyon.memoryId, batch: 'review-1', reason: 'suspicious' });
    tick();
    await ledger.retype(tenant, { memoryId: berlin.memoryId, type: 'preference', batch: 'review-1' });
    tick();
    const review = await ledger.rollback(tenant, { batch: 'review-1' });
    expect(review.items.map((i) => i.result)).toEqual(['compensated', 'compensated']);
    tick();
    await ledger.quarantine(tenant, { memoryId: coffee.memoryId });
    tick();
    await ledger.restore(tenant, { memoryId: coffee.memoryId });
    tick();
    await ledger.retract(tenant, { memoryId: lyon.memoryId, validFrom: '2026-06-01', batch: 'cleanup' });
    tick();
    expect((await ledger.rollback(tenant, { batch: 'cleanup' })).items.map((i) => i.result)).toEqual(['compensated']);
    // A restore into an empty period: the rival took the very same start meanwhile. The ledger
    // refuses that restore now (slot_taken); a log written before holds it, appended here as it was.
    tick();
    const dublin = await ledger.assert(tenant, lives('Dublin', { subject: 'Bob', validFrom: '2026-04-01' }));
    tick();
    await ledger.quarantine(tenant, { memoryId: dublin.memoryId });
    tick();
    const cork = await ledger.assert(tenant, lives('Cork', { subject: 'Bob', validFrom: '2026-04-01' }));
    tick();
    await expect(ledger.restore(tenant, { memoryId: dublin.memoryId })).rejects.toMatchObject({ code: 'slot_taken', heldBy: cork.memoryId });
    const { streamId } = (await handle.reader.memory(tenant, dublin.memoryId))!;
    const restored = { eventId: randomUUID(), type: 'MemoryRestored', data: { memoryId: dublin.memoryId, validTo: '2026-04-01T00:00:00.000Z' } };
    await handle.store.append({ tenant, commandId: null, causationId: null, correlationId: null, batch: null, recordedAt: clock.now() }, [{ streamId, expectedVersion: 'any', events: [restored] }]);
    await handle.runner.catchUp();
    // One append that changes one memory twice.
    tick();
    const carol = await ledger.assert(tenant, lives('Madrid', { subject: 'Carol', validFrom: '2026-01-01' }));
    tick();
    await ledger.retype(tenant, { memoryId: carol.memoryId, type: 'preference', batch: 'twice' });
    tick();
    await ledger.quarantine(tenant, { memoryId: carol.memoryId, batch: 'twice' });
    tick();
    expect((await ledger.rollback(tenant, { batch: 'twice' })).items.map((i) => i.result)).toEqual(['compensated', 'compensated']);
    // Text that COPY's format must escape (a rebuild bulk-loads with it): tabs, newlines, backslashes, a literal \\N.
    tick();
    await ledger.assert(tenant, { text: 'Logs go to C:\\logs\\new\tthen\nthe next line, "quoted", \\N, 서울' });
    tick();
    await ledger.assert(tenant, { subject: 'deploy\tbot', relation: 'uses', value: 'path\\to\nconfig', scope: { env: 'a\tb\\c' } });
    // And one that stays out of the read paths.
    tick();
    await ledger.quarantine(tenant, { memoryId: prose.memoryId, reason: 'not about work' });
  }
}

describe.each(testBackends())('ProjectionRunner on %s', (backend) => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  const clock = new ManualClock(START);

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    handle = ledgerOn(database, { clock });
    await liveSequence(handle, clock);
  }, 120_000);
  afterAll(() => database.close());

  describe('(a) rebuild', () => {
    it('rebuilds from position 0 exactly the rows the live projection wrote', async () => {
      await handle.runner.catchUp();
      const live = await dump(database);
      // The sequence produced every kind of row this comparison is about.
      expect(new Set(live.memories.map((m) => (m as { status: string }).status))).toEqual(new Set(['active', 'quarantined', 'retired', 'overruled']));
      expect(new Set(live.history.map((h) => (h as { status: string }).status))).toEqual(new Set(['active', 'quarantined', 'overruled']));
      expect(live.history.filter((h) => (h as { closed_by: number | null }).closed_by !== null).length).toBeGreaterThan(10);
      expect(new Set(live.memories.map((m) => (m as { tenant: string }).tenant))).toEqual(new Set(['acme', 'globex']));

      const log = await readWholeLog(handle);
      const rows = await handle.runner.rows('facts');
      expect(rows.fl_memories).toHaveLength(live.memories.length);
      expect(rows.fl_fact_history).toHaveLength(live.history.length);
      const result = await handle.runner.rebuild('facts');
      expect(result.events).toBe(log.length);
      expect(await dump(database)).toEqual(live);
      expect(await handle.runner.rows('facts')).toEqual(rows);
      const [status] = await handle.runner.status(clock.now());
      expect(status).toMatchObject({ name: 'facts', behindEvents: 0, lagMs: 0, checkpoint: log[log.length - 1]!.logPosition });
      // The planner knows the new tables at once: their size, and the statistics of the columns reads look rows up by.
      const sized = await sql<{ reltuples: number }>`SELECT reltuples FROM pg_class WHERE relname = 'fl_memories'`.execute(database.db);
      expect(Number(sized.rows[0]!.reltuples)).toBe(live.memories.length);
      const analyzed = await sql<{ attname: string }>`SELECT attname FROM pg_stats WHERE tablename = 'fl_fact_history' AND attname = 'stream_id'`.execute(database.db);
      expect(analyzed.rows).toHaveLength(1);
    });

    it('rebuilds the same rows through the incremental apply, a few events per batch', async () => {
      await handle.runner.catchUp();
      const live = await dump(database);
      // Without a rebuilder (the fast path) the rebuild folds the log through apply(), page by page: open rows
      // are loaded, closed and reopened across batch boundaries as in live operation.
      const real = new PostgresFactProjection();
      const incremental: Projection = { name: 'facts', tables: real.tables, apply: (trx, events) => real.apply(trx, events), reset: (trx) => real.reset(trx) };
      const runner = new ProjectionRunner(database.db, [incremental], { batchSize: 1 });
      await runner.rebuild('facts');
      expect(await dump(database)).toEqual(live);
    });

    it('serves reads during a rebuild from the whole read model, never an empty or partial one', async () => {
      // Enough rows that the rebuild takes a while; on native PostgreSQL the reads run beside it, on PGlite they queue behind it.
      for (let i = 0; i < 20; i++) {
        await handle.ledger.writeMany(
          'busy',
          Array.from({ length: 100 }, (_, j) => ({ assert: { subject: `host ${i * 100 + j}`, relation: 'runs', value: `v${j}`, validFrom: '2026-01-01' } })),
        );
      }
      await handle.runner.catchUp();
      const count = async () => (await handle.reader.activeMemories('busy', clock.now(), 5000)).length;
      expect(await count()).toBe(2000);
      const seen: number[] = [];
      let rebuilding = true;
      const rebuild = handle.runner.rebuild('facts').finally(() => {
        rebuilding = false;
      });
      let during = 0;
      while (rebuilding) {
        seen.push(await count());
        if (rebuilding) during++;
      }
      await rebuild;
      seen.push(await count());
      expect(new Set(seen)).toEqual(new Set([2000]));
      if (backend === 'postgres') expect(during).toBeGreaterThan(2);
    }, 120_000);

    it('rebuilds from an emptied read model too (not only over the live tables)', async () => {
      await handle.runner.catchUp();
      const live = await dump(database);
      await database.db.transaction().execute((trx) => new PostgresFactProjection().reset(trx));
      expect((await dump(database)).memories).toEqual([]);
      await handle.runner.rebuild('facts');
      expect(await dump(database)).toEqual(live);
    });
  });

  // Several connections at once: the rebuild loads new tables beside the live ones and swaps them in.
  if (backend === 'postgres') {
    describe('(a2) rebuild beside the live tables', () => {
      const names = async (): Promise<string[]> =>
        (
          await sql<{ name: string }>`
            SELECT c.relname || ':' || c.relkind::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND (c.relname LIKE 'fl\\_memories%' OR c.relname LIKE 'fl\\_fact\\_history%' OR c.relname LIKE 'fl\\_projected\\_streams%')
            UNION ALL SELECT conrelid::regclass::text || '.' || conname FROM pg_constraint WHERE conrelid IN ('fl_memories'::regclass, 'fl_fact_history'::regclass, 'fl_projected_streams'::regclass)
            ORDER BY 1`.execute(database.db)
        ).rows.map((r) => r.name);

      it('keeps every table, index and constraint name, and leaves no new table behind', async () => {
        const before = await names();
        expect(before).toContain('fl_fact_history.fl_fact_history_no_overlap');
        await handle.runner.rebuild('facts');
        expect(await names()).toEqual(before);
      });

      it('makes the read views over the swapped tables again (migrations/022), reading the new rows', async () => {
        await handle.runner.catchUp();
        const views = async () =>
          (await sql<{ name: string; definition: string }>`SELECT viewname AS name, definition FROM pg_views WHERE viewname LIKE 'fl\\_read\\_%' ORDER BY 1`.execute(database.db)).rows;
        const before = await views();
        expect(before.map((v) => v.name)).toEqual(['fl_read_checkpoints', 'fl_read_erased', 'fl_read_history', 'fl_read_memories']);
        const oid = async () => (await sql<{ oid: number }>`SELECT 'fl_memories'::regclass::oid::int AS oid`.execute(database.db)).rows[0]!.oid;
        const table = await oid();
        await handle.runner.rebuild('facts');
        expect(await oid()).not.toBe(table); // a new table
        expect(await views()).toEqual(before);
        const count = async (relation: string) => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(relation)}`.execute(database.db)).rows[0]!.n);
        expect(await count('fl_read_memories')).toBe(await count('fl_memories'));
        expect(await count('fl_read_history')).toBe(await count('fl_fact_history'));
        expect(await count('fl_read_memories')).toBeGreaterThan(0);
      });

      it('replaces what a rebuild that died half-way left behind', async () => {
        await sql`CREATE TABLE fl_memories__rebuild (leftover int)`.execute(database.db);
        await handle.runner.catchUp();
        const live = await dump(database);
        await handle.runner.rebuild('facts');
        expect(await dump(database)).toEqual(live);
        expect((await names()).filter((n) => n.includes('__rebuild'))).toEqual([]);
      });

      it('changes nothing when the fold fails half-way: the live tables stay, no new table is left', async () => {
        await handle.runner.catchUp();
        const live = await dump(database);
        const before = await names();
        const real = new PostgresFactProjection();
        const failing: Projection = {
          name: 'facts',
          tables: real.tables,
          statistics: real.statistics,
          apply: (trx, events) => real.apply(trx, events),
          reset: (trx) => real.reset(trx),
          rebuilder: (sink, lastOfStream) => {
            const inner = real.rebuilder(sink, lastOfStream);
            let pages = 0;
            return {
              columns: inner.columns,
              add: (events) => {
                if (++pages === 2) throw new Error('fold failed on page 2');
                inner.add(events);
              },
              end: () => inner.end(),
            };
          },
        };
        const runner = new ProjectionRunner(database.db, [failing], { batchSize: 1, sessions: database });
        await expect(runner.rebuild('facts')).rejects.toThrow('fold failed on page 2');
        expect(await dump(database)).toEqual(live);
        expect(await names()).toEqual(before);
      });

      it('loses nothing written while it runs: the checkpoint goes back to what the new tables hold, and a catch-up applies the rest', async () => {
        await handle.runner.catchUp();
        const written: number[] = [];
        let opened = 0;
        // A write lands after the rebuild took its snapshot of the log, before the new tables are swapped in.
        const during = {
          concurrentSessions: true,
          session: async <T>(work: (s: Session) => Promise<T>): Promise<T> => {
            opened++;
            if (opened === 2) {
              clock.advance(1000);
              written.push((await handle.ledger.assert('acme', { subject: 'carol', relation: 'works at', value: `Initech ${opened}` })).position);
            }
            return database.session(work);
          },
        };
        const runner = new ProjectionRunner(database.db, [new PostgresFactProjection()], { sessions: during });
        const head = await handle.store.head();
        const result = await runner.rebuild('facts');
        expect(written).toHaveLength(1);
        expect(result.events).toBe(head); // the log as the snapshot had it
        const [status] = await runner.status(clock.now());
        expect(status!.checkpoint.prepare).toBe(head);
        expect(status!.behindEvents).toBe(1);
        await runner.catchUp();
        const caughtUp = await dump(database);
        expect(JSON.stringify(caughtUp.memories)).toContain(`Initech 2`);
        // The same rows as a rebuild with nothing written meanwhile.
        await handle.runner.rebuild('facts');
        expect(await dump(database)).toEqual(caughtUp);
        // Writers carry on over the swapped-in tables, their own projection inline.
        clock.advance(1000);
        await handle.ledger.assert('acme', { subject: 'carol', relation: 'works at', value: 'Initech 3' });
        expect(JSON.stringify((await dump(database)).memories)).toContain('Initech 3');
        expect((await runner.status(clock.now()))[0]!.behindEvents).toBe(0);
      });
    });
  }

  describe('(b) idempotence', () => {
    it('changes nothing when an already applied batch is applied again', async () => {
      await handle.runner.catchUp();
      const before = await dump(database);
      const log = await readWholeLog(handle);
      const projection = new PostgresFactProjection();
      await database.db.transaction().execute(async (trx) => {
        await projection.apply(trx, log);
        await projection.apply(trx, log.slice(Math.floor(log.length / 3), Math.floor((2 * log.length) / 3)));
        await projection.apply(trx, log.slice(-3));
        await projection.apply(trx, [log[0]!, log[log.length - 1]!, log[1]!]);
      });
      expect(await dump(database)).toEqual(before);
    });

    it('applies a batch that overlaps what was applied: the old part is skipped, the new part lands', async () => {
      await handle.runner.catchUp();
      const applied = await readWholeLog(handle);
      const position = await appendDirectly(handle, 'idem', ['one', 'two'], clock.now());
      const log = await readWholeLog(handle);
      const fresh = log.filter((e) => e.globalPosition > applied[applied.length - 1]!.globalPosition);
      expect(fresh.map((e) => e.globalPosition)).toEqual([position - 1, position]);
      const projection = new PostgresFactProjection();
      await database.db.transaction().execute((trx) => projection.apply(trx, [...applied.slice(-5), ...fresh]));
      const once = await dump(database);
      expect(once.memories.filter((m) => (m as { tenant: string }).tenant === 'idem')).toHaveLength(2);
      // The runner's own catch-up now replays those two events (its checkpoint is behind): no change.
      await handle.runner.catchUp();
      expect(await dump(database)).toEqual(once);
      // And a rebuild agrees with the lot.
      await handle.runner.rebuild('facts');
      expect(await dump(database)).toEqual(once);
    });
  });

  describe('(c) checkpoint and status', () => {
    it('moves the checkpoint to the last event and reports nothing behind after a catch-up, and the lag after direct appends', async () => {
      await handle.runner.catchUp();
      let log = await readWholeLog(handle);
      let [status] = await handle.runner.status(clock.now());
      expect(status).toEqual({ name: 'facts', checkpoint: log[log.length - 1]!.logPosition, behindEvents: 0, lagMs: 0 });
      const checkpoint = await sql<{ commit: string; prepare: number }>`SELECT commit::text AS commit, prepare FROM fl_checkpoints WHERE name = 'facts'`.execute(database.db);
      expect(checkpoint.rows[0]).toEqual(log[log.length - 1]!.logPosition);

      const recordedAt = clock.now();
      await appendDirectly(handle, 'status', ['x', 'y', 'z'], recordedAt);
      [status] = await handle.runner.status(new Date(recordedAt.getTime() + 5000));
      expect(status).toEqual({ name: 'facts', checkpoint: log[log.length - 1]!.logPosition, behindEvents: 3, lagMs: 5000 });

      await handle.runner.catchUp();
      log = await readWholeLog(handle);
      [status] = await handle.runner.status(new Date(recordedAt.getTime() + 5000));
      expect(status).toEqual({ name: 'facts', checkpoint: log[log.length - 1]!.logPosition, behindEvents: 0, lagMs: 0 });
    });
  });

  describe('(c2) checkpoint lag', () => {
    it('counts every event as behind for a checkpoint that has no row yet, and names the checkpoint', async () => {
      const log = await readWholeLog(handle);
      const lag = await checkpointLag(database.db, `never-run-${randomUUID()}`, null);
      expect(lag).toEqual({ events: log.length, oldest: new Date(Math.min(...log.map((e) => +e.recordedAt))), checkpoint: 0 });
      await handle.runner.catchUp();
      const facts = await checkpointLag(database.db, 'facts', null);
      expect(facts).toEqual({ events: 0, oldest: null, checkpoint: log[log.length - 1]!.logPosition.prepare });
    });
  });

  describe('(d) awaitPosition', () => {
    it('catches up to a position written straight to the store, after which the read sees it', async () => {
      await handle.runner.catchUp();
      const key = { subject: 'Dora', relation: 'works at', scope: {} };
      const command: AssertMemory = {
        kind: 'AssertMemory',
        memoryId: randomUUID(),
        memoryKind: 'fact',
        ...key,
        value: 'ACME',
        text: 'Dora works at ACME',
        type: 'fact',
        speaker: 'user',
        source: null,
        authority: 0,
        cardinality: 'one',
        core: false,
        validFrom: new Date('2026-01-01T00:00:00Z'),
        validTo: null,
        mode: 'update',
      };
      const written = await handle.store.append({ tenant: 'await', commandId: null, causationId: null, correlationId: null, batch: null, recordedAt: clock.now() }, [
        { streamId: factStreamId(key), expectedVersion: 'no-stream', events: decide(command, initialState()).events.map((e) => ({ eventId: randomUUID(), ...e })) },
      ]);
      // Not applied yet: a read that does not ask for the position does not see it.
      expect((await handle.ledger.fact('await', { subject: 'dora', relation: 'works at' })).value).toBeNull();
      const runner = new ProjectionRunner(database.db, [new PostgresFactProjection()], { waitTimeoutMs: 5000 });
      await runner.awaitPosition(written.position);
      const [status] = await runner.status(clock.now());
      expect(status!.checkpoint.prepare).toBeGreaterThanOrEqual(written.position);
      expect((await handle.ledger.fact('await', { subject: 'dora', relation: 'works at' })).value).toBe('ACME');
      // Through the Ledger's minPosition too, and a position already reached returns at once.
      const more = await appendDirectly(handle, 'await', ['later'], clock.now());
      const view = await handle.ledger.fact('await', { subject: 'dora', relation: 'works at', minPosition: more });
      expect(view.value).toBe('ACME');
      expect((await handle.runner.status(clock.now()))[0]!.behindEvents).toBe(0);
      await runner.awaitPosition(written.position);
    });

    if (backend === 'postgres') {
      // Fails today: awaitPosition's first attempt awaits catchUp(), whose drain() blocks in
      // pg_advisory_xact_lock for as long as the other holder keeps the lock, so waitTimeoutMs is
      // never checked and the read hangs instead of failing with ProjectionLagError.
      it('throws ProjectionLagError with the behind count when the projection cannot reach the position in time', async () => {
        await handle.runner.catchUp();
        const holder = new Client({ connectionString: database.url! });
        await holder.connect();
        const runner = new ProjectionRunner(database.db, [new PostgresFactProjection()], { waitTimeoutMs: 200 });
        try {
          // Another process is applying (or stuck applying) the projection: it holds its lock.
          await holder.query(`SELECT pg_advisory_lock(hashtext('fl_projection:facts'))`);
          const position = await appendDirectly(handle, 'lag', ['a', 'b', 'c'], clock.now());
          const started = Date.now();
          const outcome = await Promise.race([
            runner.awaitPosition(position).then(
              () => 'resolved',
              (error: unknown) => error,
            ),
            new Promise((resolve) => setTimeout(() => resolve(`still waiting after 3000 ms (waitTimeoutMs is 200)`), 3000)),
          ]);
          const waited = Date.now() - started;
          expect(outcome).toBeInstanceOf(ProjectionLagError);
          const lag = outcome as ProjectionLagError;
          expect(lag).toMatchObject({ code: 'projection_lag', projection: 'facts', minPosition: position, behind: 3 });
          expect(lag.message).toContain(`position ${position}`);
          expect(lag.message).toContain('3 event(s)');
          expect(waited).toBeLessThan(2000);
        } finally {
          await holder.query(`SELECT pg_advisory_unlock_all()`);
          await holder.end();
        }
        // Once the other process lets go, the same wait succeeds.
        await handle.runner.catchUp();
        await runner.awaitPosition(await handle.store.head());
        expect((await runner.status(clock.now()))[0]!.behindEvents).toBe(0);
      }, 30_000);
    }
  });

  describe('(e) the overlap constraint', () => {
    /** Copies an open active history row of the ledger under a new memory id, with the given changes. */
    const insertCopy = (tenant: string, memoryId: string, changes: { valid?: string; tx?: string; status?: string; element?: string }) => sql`
      INSERT INTO fl_fact_history (tenant, memory_id, opened_by, opened_event_type, stream_id, element, kind, cardinality, subject, relation,
        subject_norm, scope, value, text, type, speaker, source, status, valid, tx, closed_by, closed_event_type)
      SELECT tenant, ${`copy-${randomUUID()}`}, opened_by, opened_event_type, stream_id, coalesce(${changes.element ?? null}, element), kind,
        cardinality, subject, relation, subject_norm, scope, value, text, type, speaker, source,
        coalesce(${changes.status ?? null}, status), coalesce(${changes.valid ?? null}::tstzrange, valid), coalesce(${changes.tx ?? null}::tstzrange, tx),
        closed_by, closed_event_type
      FROM fl_fact_history WHERE tenant = ${tenant} AND memory_id = ${memoryId} AND status = 'active' AND upper_inf(tx)`;

    const openRow = async (tenant: string, subject: string, relation: string): Promise<{ memory_id: string; valid: string; element: string }> => {
      const rows = await sql<{ memory_id: string; valid: string; element: string }>`
        SELECT memory_id, valid::text AS valid, element FROM fl_fact_history
        WHERE tenant = ${tenant} AND subject_norm = ${subject} AND relation = ${relation} AND status = 'active' AND upper_inf(tx) AND upper_inf(valid)
        ORDER BY opened_by DESC LIMIT 1`.execute(database.db);
      expect(rows.rows).toHaveLength(1);
      return rows.rows[0]!;
    };

    /** Runs the insert in a transaction that is always rolled back; returns the error code, or 'inserted'. */
    const attempt = async (query: ReturnType<typeof insertCopy>): Promise<string> => {
      try {
        await database.db.transaction().execute(async (trx) => {
          const result = await query.execute(trx);
          expect(Number(result.numAffectedRows)).toBe(1);
          throw new Error('inserted');
        });
      } catch (error) {
        return (error as { code?: string }).code ?? (error as Error).message;
      }
      return 'no error';
    };

    it('rejects a second current version of a key that overlaps in valid time (23P01)', async () => {
      await handle.runner.catchUp();
      const current = await openRow('acme', 'bob', 'lives in');
      // An open active row overlapping the current one: exactly what a broken projection would write.
      expect(await attempt(insertCopy('acme', current.memory_id, { valid: '[2026-06-01,)' }))).toBe('23P01');
      expect(await attempt(insertCopy('acme', current.memory_id, { valid: '[2025-01-01,2026-04-02)' }))).toBe('23P01');
      // The constraint is about current, active, overlapping rows of one key (one element of a set) only:
      expect(await attempt(insertCopy('acme', current.memory_id, { valid: '[2025-01-01,2026-04-01)' }))).toBe('inserted');
      expect(await attempt(insertCopy('acme', current.memory_id, { status: 'quarantined' }))).toBe('inserted');
      expect(await attempt(insertCopy('acme', current.memory_id, { tx: '[2026-12-01,2026-12-02)' }))).toBe('inserted');
      // Nothing of it stayed.
      expect((await sql`SELECT 1 FROM fl_fact_history WHERE memory_id LIKE 'copy-%'`.execute(database.db)).rows).toEqual([]);
    });

    it('rejects an overlapping current row of the same element of a set, not of another element (or period)', async () => {
      await handle.runner.catchUp();
      const coffee = await openRow('acme', 'alice', 'likes');
      expect(coffee.element).toBe('coffee');
      expect(await attempt(insertCopy('acme', coffee.memory_id, {}))).toBe('23P01');
      expect(await attempt(insertCopy('acme', coffee.memory_id, { element: 'milk' }))).toBe('inserted');
      // 'tea' still holds over [2026-01-01, 2026-05-01), which a copy of coffee's open period overlaps.
      expect(await attempt(insertCopy('acme', coffee.memory_id, { element: 'tea' }))).toBe('23P01');
      expect(await attempt(insertCopy('acme', coffee.memory_id, { element: 'tea', valid: '[2026-05-01,)' }))).toBe('inserted');
    });
  });
});
