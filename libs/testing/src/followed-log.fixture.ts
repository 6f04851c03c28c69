/**
 * Test fixture for the worker specs: an in-memory log (as a log kept outside PostgreSQL would be)
 * and a checkpointed consumer that copies each event's `n` into a table of its own, with helpers
 * to append, to read what was applied, and to wait until it has been.
 */
import { randomUUID } from 'node:crypto';
import { CheckpointedConsumer } from '@factledger/projections';
import { type Database, InMemoryEventStore, type RecordedEvent } from '@factledger/store';
import { sql } from 'kysely';
import { testAppendContext } from './test-database';

const ctx = testAppendContext({ tenant: 't' });

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface FollowedLog {
  log: InMemoryEventStore;
  /** The consumer's checkpoint name, fresh for each fixture. */
  name: string;
  consumer: CheckpointedConsumer;
  append(n: number): Promise<void>;
  /** The `n` of every applied event, in log order. */
  applied(): Promise<number[]>;
  /** Waits until `count` events are applied (fails after 10 s). */
  until(count: number): Promise<void>;
}

/** Creates the consumer's table (once per database) and a fresh log with `preloaded` events 0..preloaded-1. */
export async function followedLog(database: Database, prefix: string, preloaded = 0): Promise<FollowedLog> {
  const db = database.db;
  await sql`CREATE TABLE IF NOT EXISTS followed_fixture (consumer text, position bigint, n int, PRIMARY KEY (consumer, position))`.execute(db);
  const log = new InMemoryEventStore();
  const name = `${prefix}-${randomUUID().slice(0, 8)}`;
  const consumer = new CheckpointedConsumer(database.db, log, name, {
    apply: async (trx, events: RecordedEvent[]) => {
      for (const e of events) await sql`INSERT INTO followed_fixture (consumer, position, n) VALUES (${name}, ${e.globalPosition}, ${(e.data as { n: number }).n})`.execute(trx);
    },
  });
  const append = async (n: number): Promise<void> => {
    await log.append(ctx, [{ streamId: 's', expectedVersion: 'any', events: [{ eventId: randomUUID(), type: 'Tested', data: { n } }] }]);
  };
  const applied = async (): Promise<number[]> => (await sql<{ n: number }>`SELECT n FROM followed_fixture WHERE consumer = ${name} ORDER BY position`.execute(db)).rows.map((r) => r.n);
  const until = async (count: number): Promise<void> => {
    for (const started = Date.now(); (await applied()).length < count;) {
      if (Date.now() - started > 10_000) throw new Error(`timed out at ${(await applied()).length} of ${count}`);
      await sleep(10);
    }
  };
  for (let n = 0; n < preloaded; n++) await append(n);
  return { log, name, consumer, append, applied, until };
}
