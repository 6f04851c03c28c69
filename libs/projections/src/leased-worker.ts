/**
 * Runs readers of the log (projections, the recall indexer, the re-review saga, the sealer) in a
 * worker process, each held by one worker at a time through a lease.
 *
 * A lease is a session-level advisory lock (`fl_lease:<job>`) on a connection the worker keeps for
 * it. It lapses when its holder dies (the operating system closes the socket and PostgreSQL ends
 * the session at once) or loses the database: the lease connection asks PostgreSQL to probe it
 * (TCP keepalives: idle 5 s, then 3 probes 1 s apart), and the worker checks it every pass and
 * stops running jobs when the check fails or takes longer than `aliveTimeoutMs`. Another worker
 * that polls every `intervalMs` takes it over within one interval of the lapse.
 *
 * A job that can `follow` (the log's consumers) is followed while its lease is held: one
 * subscription to the log from the consumer's checkpoint (EventStore.subscribe), so new events are
 * applied as they land (pushed by KurrentDB; found by a poll on PostgreSQL), and stopped when the
 * lease is lost. Other jobs (the sealer, trace retention) run once a pass.
 *
 * The lease keeps two workers from doing the same work at once; it is not what keeps an event from
 * being applied twice: every job is a CheckpointedConsumer (or the sealer, serialised by its own
 * lock), whose page commits its rows and its checkpoint together, so a hand-over in the middle of
 * a page replays that page and nothing else.
 */
import type { Database, Session } from '@factledger/store';
import { sql } from 'kysely';
import type { Following } from './checkpointed-consumer';

export interface WorkerJob {
  name: string;
  /** Everything committed so far (a catch-up). */
  run(): Promise<unknown>;
  /** Follows the log until stopped; when given, the worker runs this instead of `run` while it holds the lease. */
  follow?(onError: (error: unknown) => void): Following;
}

/**
 * A job list from its names and one entry per name, in the names' order. The names are what a
 * caller checks `--only` against; the type makes every name have a job and every job a name.
 */
export function namedJobs<N extends string>(names: readonly N[], jobs: Record<N, Omit<WorkerJob, 'name'>>): WorkerJob[] {
  return names.map((name) => ({ name, ...jobs[name] }));
}

export interface WorkerOptions {
  intervalMs: number;
  /** How long the lease connection may take to answer its check before the leases count as lost. */
  aliveTimeoutMs?: number;
  onError?(error: unknown): void;
  /** Told when a lease is taken or lost. */
  onLease?(job: string, held: boolean): void;
}

export class LeasedWorker {
  private stopping = false;
  private running: Promise<void> | null = null;
  private readonly held = new Set<string>();
  private readonly following = new Map<string, Following>();
  /** Ends the wait between passes: `stop` takes effect at once, not an interval later. */
  private wake = (): void => undefined;

  constructor(
    private readonly database: Pick<Database, 'session'>,
    private readonly jobs: WorkerJob[],
    private readonly options: WorkerOptions,
  ) {}

  /** The jobs this worker holds right now. */
  get holding(): string[] {
    return [...this.held];
  }

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.running;
    this.running = null;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.database.session((s) => this.withLeases(s));
      } catch (error) {
        this.options.onError?.(error);
      }
      this.lost();
      if (!this.stopping) await this.sleep(this.options.intervalMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    return new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      this.wake = resolve;
    }).finally(() => clearTimeout(timer));
  }

  private lost(): void {
    for (const job of this.held) this.options.onLease?.(job, false);
    this.held.clear();
  }

  /** One lease connection: take what is free, run what is held, check the connection, again. */
  private async withLeases(s: Session): Promise<void> {
    await sql`SELECT set_config('tcp_keepalives_idle', '5', false), set_config('tcp_keepalives_interval', '1', false), set_config('tcp_keepalives_count', '3', false)`
      .execute(s.db)
      .catch(() => undefined); // PGlite has no sockets
    try {
      while (!this.stopping) {
        for (const job of this.jobs) {
          if (!this.held.has(job.name)) {
            const got = (await sql<{ ok: boolean }>`SELECT pg_try_advisory_lock(hashtext(${`fl_lease:${job.name}`})) AS ok`.execute(s.db)).rows[0]!.ok;
            if (!got) continue;
            this.held.add(job.name);
            this.options.onLease?.(job.name, true);
          }
          if (job.follow) {
            if (!this.following.has(job.name))
              this.following.set(
                job.name,
                job.follow((error) => this.options.onError?.(error)),
              );
            continue;
          }
          try {
            await job.run();
          } catch (error) {
            this.options.onError?.(error);
          }
        }
        await this.sleep(this.options.intervalMs);
        if (!this.stopping) await this.alive(s);
      }
    } finally {
      // No job goes on once its lease may be someone else's.
      await Promise.all([...this.following.values()].map((f) => f.stop().catch((error: unknown) => this.options.onError?.(error))));
      this.following.clear();
      // The connection goes back to its pool: it must not carry the leases with it.
      await sql`SELECT pg_advisory_unlock_all()`.execute(s.db).catch(() => undefined);
    }
  }

  private async alive(s: Session): Promise<void> {
    const timeout = this.options.aliveTimeoutMs ?? 5000;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([sql`SELECT 1`.execute(s.db), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`the lease connection did not answer within ${timeout} ms`)), timeout)))]);
    } finally {
      clearTimeout(timer);
    }
  }
}
