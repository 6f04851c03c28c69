/**
 * The one way a reader of the log keeps up with it: every projection, the recall indexer and the
 * re-review saga are a CheckpointedConsumer with their own step. The log comes through the
 * event-store port (never its tables); the checkpoint lives with the read models, in PostgreSQL.
 *
 * A page, in order:
 * 1. read the checkpoint, and the events after it from the port;
 * 2. `prepare` them outside any transaction (embedding, commands of the consumer's own: work that
 *    must not hold a transaction open, and that is safe to do twice);
 * 3. in one transaction: take the consumer's lock (without waiting: another process that holds it
 *    is doing this very work), check the checkpoint has not moved, `apply` the rows, move the
 *    checkpoint. A crash anywhere replays the page from the old checkpoint; an `apply` that
 *    commits has moved the checkpoint with it, so no event is applied twice or skipped.
 *
 * Concurrent callers in one process share a run (SingleFlightDrain).
 *
 * Two ways to drive it: `catchUp` reads what is committed so far (a worker's pass, a reader that
 * waits for its own write), and `follow` keeps a subscription to the log (EventStore.subscribe)
 * open from the checkpoint and applies each page the store delivers, in the same transaction
 * discipline. Both may run at once: whichever moves the checkpoint first wins a page, and the
 * other finds it moved.
 */
import {
  type CheckpointTables,
  type DatabaseSchema,
  type EventStore,
  type Executor,
  LOG_START,
  type LogPosition,
  type LogSubscription,
  type RecordedEvent,
  slice,
  SPAN,
  traced,
} from '@factledger/store';
import { type Kysely, sql } from 'kysely';
import { SingleFlightDrain } from './single-flight-drain';

export interface ConsumerStep<P = void> {
  prepare?(events: RecordedEvent[]): Promise<P>;
  apply?(trx: Executor, events: RecordedEvent[], prepared: P): Promise<void>;
}

/** What a page did: whether the log is drained, how many events it consumed. */
export interface PageOutcome {
  done: boolean;
  events: number;
}

/** A consumer following the log (CheckpointedConsumer.follow). */
export interface Following {
  /** Closes the subscription; resolves once a page in progress has committed or rolled back. */
  stop(): Promise<void>;
}

/** Why a delivered page was not applied as it came: the subscription starts again from the checkpoint. */
class Resubscribe extends Error {
  constructor(readonly reason: 'busy' | 'moved') {
    super(`consumer ${reason}`);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class CheckpointedConsumer<P = void> {
  private readonly drain = new SingleFlightDrain(async () => {
    const { done, events } = await this.page();
    return { done, count: events };
  });
  private ready: Promise<unknown> | null = null;
  private inTurn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly log: Pick<EventStore, 'readAll' | 'subscribe'>,
    readonly name: string,
    private readonly step: ConsumerStep<P>,
    readonly batchSize = 1000,
  ) {}

  /** Consumes everything committed so far (a call made during a run gets one more pass); returns events consumed. */
  catchUp(): Promise<number> {
    return this.drain.run();
  }

  /** The checkpoint row exists from the first call on. */
  ensureCheckpoint(): Promise<unknown> {
    this.ready ??= checkpoints(this.db)
      .insertInto('fl_checkpoints')
      .values({ name: this.name })
      .onConflict((oc) => oc.doNothing())
      .execute()
      .catch((error: unknown) => {
        this.ready = null; // try again next time
        throw error;
      });
    return this.ready;
  }

  async page(): Promise<PageOutcome> {
    await this.ensureCheckpoint();
    const from = await readCheckpoint(this.db, this.name);
    const events = await this.log.readAll(from, this.batchSize);
    if (events.length === 0) return { done: true, events: 0 };
    const applied = await this.apply(from, events);
    // Busy: another process is consuming these very events, and a reader that needs them waits
    // for its checkpoint. Moved: someone else applied them first (an inline projection, another
    // process); this page's work is dropped and the next reads on from there.
    if (applied.outcome === 'busy') return { done: true, events: 0 };
    if (applied.outcome === 'moved') return { done: false, events: 0 };
    return { done: events.length < this.batchSize, events: applied.events };
  }

  /**
   * Follows the log until stopped: a subscription from the checkpoint, each delivered page applied
   * as `page` applies one. When the checkpoint has moved on meanwhile (an inline projection, a
   * catch-up) the part of the page already applied is passed over, for a consumer without a
   * `prepare` (whose work is done for the whole page); otherwise, and whenever another process
   * holds the consumer, the subscription starts again from the stored checkpoint, `retryMs`
   * (250) later when busy. Errors (a failed read, a failed page) go to `onError`, and it starts again.
   */
  follow(options: { retryMs?: number; onError?: (error: unknown) => void } = {}): Following {
    const retryMs = options.retryMs ?? 250;
    let stopped = false;
    let subscription: LogSubscription | null = null;
    let wake = (): void => undefined;
    const run = async (): Promise<void> => {
      while (!stopped) {
        let pause = 0;
        try {
          await this.ensureCheckpoint();
          let from = await readCheckpoint(this.db, this.name);
          if (stopped) return;
          subscription = this.log.subscribe(
            from,
            async (events) => {
              const applied = await this.apply(from, events, { passOver: !this.step.prepare });
              if (applied.outcome !== 'applied') throw new Resubscribe(applied.outcome);
              from = events[events.length - 1]!.logPosition;
            },
            { pageSize: this.batchSize },
          );
          await subscription.ended;
        } catch (error) {
          if (!(error instanceof Resubscribe)) {
            options.onError?.(error);
            pause = retryMs;
          } else if (error.reason === 'busy') pause = retryMs;
        }
        if (pause > 0 && !stopped) await Promise.race([sleep(pause), new Promise<void>((resolve) => (wake = resolve))]);
      }
    };
    const running = run();
    return {
      stop: async () => {
        stopped = true;
        wake();
        await subscription?.close();
        await running;
      },
    };
  }

  /**
   * Prepares and applies `events`, read from checkpoint `from`, in one transaction with the
   * checkpoint. `passOver`: when the checkpoint has moved on within the page, apply only what lies
   * past it (a log's order is its positions' order, on every store).
   */
  private apply(from: LogPosition, events: RecordedEvent[], options: { passOver?: boolean } = {}): Promise<{ outcome: 'busy' | 'moved' | 'applied'; events: number }> {
    return traced(SPAN.consume, { 'factledger.consumer': this.name, 'factledger.read': events.length }, async (span) => {
      const prepared = (await this.step.prepare?.(events)) as P;
      // One page's transaction at a time in this process: a catch-up and the subscription of this
      // consumer wait for each other here rather than find the consumer busy (which sends the
      // subscription back to its checkpoint); across processes the lock below decides.
      const turn = this.inTurn.then(() => this.transact(from, events, prepared, options));
      this.inTurn = turn.catch(() => undefined);
      const done = await turn;
      span.setAttributes({ 'factledger.outcome': done.outcome, 'factledger.events': done.events });
      return done;
    });
  }

  private transact(from: LogPosition, events: RecordedEvent[], prepared: P, options: { passOver?: boolean }): Promise<{ outcome: 'busy' | 'moved' | 'applied'; events: number }> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await lockConsumer(trx, this.name, { wait: false }))) return { outcome: 'busy' as const, events: 0 };
      const now = await readCheckpoint(trx, this.name);
      let todo = events;
      if (now.prepare !== from.prepare) {
        if (!options.passOver || now.prepare < from.prepare) return { outcome: 'moved' as const, events: 0 };
        todo = events.filter((e) => e.logPosition.prepare > now.prepare);
        if (todo.length === 0) return { outcome: 'applied' as const, events: 0 };
      }
      await this.step.apply?.(trx, todo, prepared);
      await writeCheckpoint(trx, this.name, todo[todo.length - 1]!.logPosition);
      return { outcome: 'applied' as const, events: todo.length };
    });
  }
}

/**
 * Serialises consumers of one name across processes. Their writes need not wait for the WAL
 * flush: a read model lost in a crash is replayed from the durable log, and its checkpoint is
 * lost with it, in the same transaction.
 */
export async function lockConsumer(trx: Executor, name: string, options: { wait: boolean } = { wait: true }): Promise<boolean> {
  const key = `fl_projection:${name}`;
  const row = options.wait
    ? await sql<{ locked: boolean }>`SELECT true AS locked, set_config('synchronous_commit', 'off', true) FROM pg_advisory_xact_lock(hashtext(${key}))`.execute(trx)
    : await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(hashtext(${key})) AS locked, set_config('synchronous_commit', 'off', true)`.execute(trx);
  return row.rows[0]!.locked;
}

/** The checkpoints, as the projections lib keeps them. */
const checkpoints = (executor: Executor): Kysely<CheckpointTables> => slice(executor);

export async function readCheckpoint(executor: Executor, name: string): Promise<LogPosition> {
  const r = await checkpoints(executor)
    .selectFrom('fl_checkpoints')
    .select([sql<string>`commit::text`.as('commit'), 'prepare'])
    .where('name', '=', name)
    .executeTakeFirst();
  return r ? { commit: r.commit, prepare: Number(r.prepare) } : LOG_START;
}

export async function writeCheckpoint(executor: Executor, name: string, position: LogPosition, options: { force?: boolean } = {}): Promise<void> {
  await checkpoints(executor)
    .insertInto('fl_checkpoints')
    .values({ name, commit: sql<string>`${position.commit}::xid8`, prepare: position.prepare, updated_at: sql<Date>`now()` })
    .onConflict((oc) => {
      const update = oc.column('name').doUpdateSet((eb) => ({ commit: eb.ref('excluded.commit'), prepare: eb.ref('excluded.prepare'), updated_at: eb.ref('excluded.updated_at') }));
      // An inline projection (see fl_apply_fact_changes) may have moved it further meanwhile; only a
      // rebuild that swaps in tables built up to `position` sets it back (force).
      return options.force ? update : update.whereRef('fl_checkpoints.prepare', '<=', 'excluded.prepare');
    })
    .execute();
}
