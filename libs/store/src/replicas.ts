/**
 * Read replicas: PostgreSQL hot standbys fed by streaming replication from the primary
 * (FACTLEDGER_READ_URLS). A standby holds the same tables, the read models included, a little
 * behind; a read goes to one only when the caller's test says it has caught up far enough, and to
 * the primary otherwise. A standby that fails, or keeps a read waiting past the bound, leaves the
 * rotation for a while, so later reads do not pay for it again; nothing fails while the primary is up.
 */
import { databaseFault } from './errors';
import { type Database, openDatabase } from './database';

export interface ReplicaOptions {
  /** How long a read waits for a standby to reach what it must show before it goes to the primary (default 200 ms). */
  waitMs?: number;
  /** How often a waiting read looks again (default 2 ms). */
  pollMs?: number;
  /** How long a standby that failed stays out of the rotation (default 5,000 ms). */
  downMs?: number;
  /** How long a standby that kept a read waiting past `waitMs` stays out of the rotation (default 1,000 ms). */
  behindMs?: number;
  /** Connections to each standby (default 10). */
  poolSize?: number;
}

export type ReplicaState = 'serving' | 'down' | 'behind';

export interface Replica {
  /** The standby's address without its password: what status and logs name it by. */
  readonly name: string;
  readonly database: Database;
}

export interface ReplicaStatus {
  name: string;
  state: ReplicaState;
  /** Reads it has served since the process started. */
  served: number;
  /** Why it left the rotation last (an error's message, or the wait it ran out of). */
  lastProblem: string | null;
}

interface Member extends Replica {
  state: ReplicaState;
  until: number;
  served: number;
  lastProblem: string | null;
}

const DEFAULTS = { waitMs: 200, pollMs: 2, downMs: 5000, behindMs: 1000, poolSize: 10 };

/** How long a new connection to a standby may take: a standby that does not answer must not hold a read for long. */
const REPLICA_CONNECT_MS = 1000;

/** A URL with its password masked, to name a standby by. */
export function replicaName(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'replica';
  }
}

/** Whether an error means the standby could not serve (connection, shutdown, a recovery conflict), so the read goes to the primary instead. */
export function replicaFault(error: unknown): boolean {
  if (databaseFault(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  // 40001: a standby cancels a read whose rows the replay must remove (conflict with recovery).
  return code === '40001' || (error instanceof Error && /terminat|ECONNRESET|Connection ended/i.test(error.message));
}

export class ReadReplicas {
  private readonly members: Member[];
  private readonly options: typeof DEFAULTS;
  private turn = 0;

  constructor(replicas: Replica[], options: ReplicaOptions = {}) {
    this.options = { ...DEFAULTS, ...options };
    this.members = replicas.map((r) => ({ ...r, state: 'serving', until: 0, served: 0, lastProblem: null }));
  }

  /** Pools to the standbys at `urls` (no connection is made until the first read). */
  static async open(urls: readonly string[], options: ReplicaOptions = {}): Promise<ReadReplicas> {
    const opened: Replica[] = [];
    for (const url of urls) {
      opened.push({ name: replicaName(url), database: await openDatabase({ url, poolSize: options.poolSize ?? DEFAULTS.poolSize, connectTimeoutMs: REPLICA_CONNECT_MS }) });
    }
    return new ReadReplicas(opened, options);
  }

  get size(): number {
    return this.members.length;
  }

  status(): ReplicaStatus[] {
    const now = Date.now();
    return this.members.map((m) => ({ name: m.name, state: m.until > now ? m.state : 'serving', served: m.served, lastProblem: m.lastProblem }));
  }

  /**
   * A standby in the rotation for which `reached` holds, looked at together every `pollMs` until
   * one does or `waitMs` has passed; null: the read goes to the primary. The standbys take turns.
   */
  async pick(reached: (database: Database) => Promise<boolean>): Promise<Replica | null> {
    const deadline = Date.now() + this.options.waitMs;
    for (;;) {
      const now = Date.now();
      const serving = this.members.filter((m) => m.until <= now);
      if (serving.length === 0) return null;
      const start = this.turn++ % serving.length;
      const order = [...serving.slice(start), ...serving.slice(0, start)];
      const ready = await Promise.all(
        order.map((m) =>
          reached(m.database).catch((error: unknown) => {
            this.leave(m, 'down', error instanceof Error ? error.message : String(error));
            return false;
          }),
        ),
      );
      const found = order.find((m, i) => ready[i] && m.until <= Date.now());
      if (found) {
        found.served++;
        return found;
      }
      if (Date.now() >= deadline) {
        for (const m of order) if (m.until <= Date.now()) this.leave(m, 'behind', `not caught up within ${this.options.waitMs} ms`);
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, this.options.pollMs));
    }
  }

  /** Takes a standby out of the rotation after a read on it failed (see replicaFault). */
  failed(replica: Replica, error: unknown): void {
    const m = this.members.find((x) => x === replica || x.database === replica.database);
    if (m) this.leave(m, 'down', error instanceof Error ? error.message : String(error));
  }

  private leave(m: Member, state: 'down' | 'behind', problem: string): void {
    m.state = state;
    m.until = Date.now() + (state === 'down' ? this.options.downMs : this.options.behindMs);
    m.lastProblem = problem;
  }

  async close(): Promise<void> {
    await Promise.all(this.members.map((m) => m.database.close()));
  }
}
