/**
 * A quick "where does the time go" profiler for the breakdown passes (never switched on while a
 * figure of the main table is measured): it wraps `pg.Client.prototype.query`, which every
 * query of Kysely's PostgresDialect goes through (native and PGlite alike), and sums the time
 * from each query's call to its answer by kind of statement. Time in which no query is out is
 * the ledger's own JavaScript (validation, decide, projection code, JSON) plus event-loop hops.
 */
import { Client } from 'pg';
import { round } from './stats';

interface Bucket {
  count: number;
  ms: number;
}

export interface ProfileReport {
  /** What one unit of work (an assert, a batch, a read...) costs, by statement kind. */
  perUnit: { kind: string; queries: number; ms: number; share: string }[];
  units: number;
  wallMsPerUnit: number;
  dbBusyMsPerUnit: number;
  /** Wall time with no query out: the ledger's JavaScript and event-loop hops. */
  jsMsPerUnit: number;
}

const RULES: [RegExp, string][] = [
  [/^begin/i, 'BEGIN'],
  [/^commit/i, 'COMMIT (incl. WAL flush)'],
  [/^rollback/i, 'ROLLBACK'],
  [/pg_advisory_xact_lock\(hashtext/i, 'projection advisory lock'],
  [/pg_advisory_xact_lock/i, 'append ordering lock (advisory)'],
  [/FROM fl_checkpoints/i, 'read checkpoint'],
  [/INSERT INTO fl_checkpoints/i, 'write checkpoint'],
  [/INSERT INTO fl_commands/i, 'claim command id'],
  [/INSERT INTO fl_streams .*ON CONFLICT DO NOTHING/is, 'claim stream (new stream)'],
  [/INSERT INTO fl_streams/i, 'claim stream (any version)'],
  [/UPDATE fl_streams/i, 'claim stream (expected version)'],
  [/INSERT INTO fl_events/i, 'insert events (jsonb_to_recordset)'],
  [/FROM fl_events\s+WHERE tenant = \$1 AND stream_id/i, 'read stream'],
  [/FROM fl_events\s+WHERE (\(transaction_id|global_position >)/i, 'read log page'],
  [/FROM fl_memories WHERE stream_id = ANY/i, 'projection: load memories'],
  [/FROM fl_fact_history WHERE stream_id = ANY/i, 'projection: load open history'],
  [/FROM fl_projected_streams/i, 'projection: load watermarks'],
  [/INSERT INTO fl_memories/i, 'projection: upsert memories'],
  [/UPDATE fl_fact_history/i, 'projection: close history rows'],
  [/INSERT INTO fl_fact_history/i, 'projection: insert history rows'],
  [/INSERT INTO fl_projected_streams/i, 'projection: upsert watermarks'],
  [/TRUNCATE/i, 'TRUNCATE read models'],
  [/FROM fl_fact_history\s+WHERE tenant = \$1 AND stream_id = \$2 AND status/i, 'read: valuesAt (history as of)'],
  [/FROM fl_memories WHERE tenant = \$1 AND memory_id/i, 'read: memory by primary key'],
];

function kindOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  for (const [re, kind] of RULES) if (re.test(flat)) return kind;
  return flat.slice(0, 60);
}

export class QueryProfiler {
  private buckets = new Map<string, Bucket>();
  private out = 0;
  private busySince = 0n;
  private busyNs = 0n;
  private started = 0n;
  private original: typeof Client.prototype.query | null = null;

  start(): void {
    this.buckets.clear();
    this.busyNs = 0n;
    this.out = 0;
    this.started = process.hrtime.bigint();
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    const original = Client.prototype.query;
    this.original = original;
    (Client.prototype as any).query = function (this: Client, ...args: any[]) {
      const config = args[0];
      const text: string = typeof config === 'string' ? config : (config?.text ?? '');
      const result = (original as any).apply(this, args);
      if (!result || typeof result.then !== 'function') return result;
      const t0 = process.hrtime.bigint();
      if (self.out++ === 0) self.busySince = t0;
      const done = (): void => {
        const t1 = process.hrtime.bigint();
        if (--self.out === 0) self.busyNs += t1 - self.busySince;
        const kind = kindOf(text);
        const b = self.buckets.get(kind) ?? { count: 0, ms: 0 };
        b.count++;
        b.ms += Number(t1 - t0) / 1e6;
        self.buckets.set(kind, b);
      };
      result.then(done, done);
      return result;
    };
  }

  stop(units: number): ProfileReport {
    const wallMs = Number(process.hrtime.bigint() - this.started) / 1e6;
    if (this.original) Client.prototype.query = this.original;
    this.original = null;
    const busyMs = Number(this.busyNs) / 1e6;
    const perUnit = [...this.buckets.entries()]
      .map(([kind, b]) => ({ kind, queries: round(b.count / units, 2), ms: round(b.ms / units, 3), share: `${((100 * b.ms) / wallMs).toFixed(1)}%` }))
      .sort((a, b) => b.ms - a.ms);
    return {
      perUnit,
      units,
      wallMsPerUnit: round(wallMs / units, 3),
      dbBusyMsPerUnit: round(busyMs / units, 3),
      jsMsPerUnit: round((wallMs - busyMs) / units, 3),
    };
  }
}
