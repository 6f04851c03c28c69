import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase, testBackends } from '@factledger/testing';
import { sql } from 'kysely';
import { Client } from 'pg';
import { TracesDroppedError, TraceWriter } from './trace-writer';

describe.each(testBackends())('TraceWriter on %s', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(() => database.close());

  const stored = async (ids: string[]): Promise<{ id: string; tenant: string; query: string; trace: { n: number } }[]> =>
    (
      await sql<{ id: string; tenant: string; query: string; trace: { n: number } }>`
      SELECT id::text, tenant, query, trace FROM fl_recall_traces WHERE id = ANY(${ids}::uuid[]) ORDER BY (trace ->> 'n')::int`.execute(database.db)
    ).rows;

  it('stores every trace added, those added together in one go, and flush waits for them', async () => {
    const writer = new TraceWriter(database.db, (error) => {
      throw error;
    });
    const ids = Array.from({ length: 450 }, () => randomUUID());
    ids.forEach((id, n) => writer.add({ id, tenant: 't', createdAt: new Date('2026-12-01T00:00:00Z'), query: `q${n}`, trace: { n }, memoryIds: [] }));
    await writer.flush();
    const rows = await stored(ids);
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(rows[449]).toEqual({ id: ids[449], tenant: 't', query: 'q449', trace: { n: 449 } });
  });

  it('reports a write that fails instead of throwing at the caller, and goes on with the next', async () => {
    const errors: unknown[] = [];
    const writer = new TraceWriter(database.db, (error) => errors.push(error));
    writer.add({ id: 'not-a-uuid', tenant: 't', createdAt: new Date(), query: 'bad', trace: { n: 0 }, memoryIds: [] });
    await writer.flush();
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/uuid/);

    const id = randomUUID();
    writer.add({ id, tenant: 't', createdAt: new Date(), query: 'good', trace: { n: 1 }, memoryIds: [] });
    await writer.flush();
    expect((await stored([id])).map((r) => r.query)).toEqual(['good']);
    expect(errors).toHaveLength(1);
  });

  it('leaves out a trace that shows a memory erased before it was written', async () => {
    const writer = new TraceWriter(database.db, (error) => {
      throw error;
    });
    await sql`INSERT INTO fl_erased_memories (tenant, memory_id, stream_id, erasure_id, erased_at, position) VALUES ('t', 'm-gone', 's', 'e', now(), 1)`.execute(database.db);
    const [kept, dropped, elsewhere] = [randomUUID(), randomUUID(), randomUUID()];
    writer.add({ id: kept, tenant: 't', createdAt: new Date(), query: 'kept', trace: { n: 0 }, memoryIds: ['m-here'] });
    writer.add({ id: dropped, tenant: 't', createdAt: new Date(), query: 'dropped', trace: { n: 1 }, memoryIds: ['m-here', 'm-gone'] });
    writer.add({ id: elsewhere, tenant: 'other', createdAt: new Date(), query: 'other tenant', trace: { n: 2 }, memoryIds: ['m-gone'] });
    await writer.flush();
    expect((await stored([kept, dropped, elsewhere])).map((r) => r.query)).toEqual(['kept', 'other tenant']);
  });

  if (backend === 'postgres') {
    it('drops the oldest waiting traces past its bound while the database stalls, and says how many', async () => {
      const locker = new Client({ connectionString: database.url! });
      await locker.connect();
      const errors: unknown[] = [];
      const writer = new TraceWriter(database.db, (error) => errors.push(error), 3);
      const ids = Array.from({ length: 6 }, () => randomUUID());
      const add = (n: number) => writer.add({ id: ids[n]!, tenant: 't', createdAt: new Date(), query: `stalled ${n}`, trace: { n }, memoryIds: [] });
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE fl_recall_traces IN ACCESS EXCLUSIVE MODE');
        add(0); // its insert waits on the lock
        await new Promise((resolve) => setTimeout(resolve, 100));
        for (let n = 1; n < 6; n++) add(n); // three may wait: 1 and 2 make room for 4 and 5
      } finally {
        await locker.query('COMMIT');
        await locker.end();
      }
      await writer.flush();
      expect((await stored(ids)).map((r) => r.trace.n)).toEqual([0, 3, 4, 5]);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(TracesDroppedError);
      expect((errors[0] as TracesDroppedError).dropped).toBe(2);
    });
  }
});
