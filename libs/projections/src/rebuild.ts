/**
 * A projection's fast rebuild from position 0 (Projection.rebuilder): the log is folded in memory
 * and the rows bulk-loaded with COPY, in one of two ways around the same fold.
 *
 * - Beside, where the database gives several sessions at once (native PostgreSQL): one session
 *   pages through the log in a single snapshot while one session per table streams that table's
 *   rows, as soon as their stream's last event is folded, into a new table made `LIKE` the live
 *   one (keys, indexes and the overlap constraint included). One short transaction then swaps
 *   the new tables in under the live tables' own index names, and sets the checkpoint to the
 *   last event read. Readers and writers keep using the live tables meanwhile; what was appended
 *   during the rebuild is applied by the next catch-up.
 * - In place, over one session (PGlite): one transaction empties the tables and drops their keys
 *   and indexes, folds the log, copies the rows in, and rebuilds keys and indexes once each.
 *   Readers wait for it and never see a half-built read model.
 *
 * Either way the rows go in frozen (the table was made or emptied in the same transaction), and
 * only the columns reads look rows up by are analyzed at once; autovacuum does the rest.
 */
import { Readable } from 'node:stream';
import { copyRows, type DatabaseSchema, type Executor, LOG_START, type LogPosition, readLog, type RecordedEvent, type Session, slice, type StoreTables } from '@factledger/store';
import { type Kysely, sql } from 'kysely';
import type { Projection, ProjectionRebuild, RebuildSink } from './projection';

export type Sessions = <T>(work: (session: Session) => Promise<T>) => Promise<T>;

export interface RebuildPlan {
  projection: Projection;
  pageSize: number;
  /** Takes the projection's advisory lock in `trx` (see lockConsumer). */
  lock(trx: Executor): Promise<unknown>;
  /** Sets the checkpoint in `trx`, even below the stored one. */
  checkpoint(trx: Executor, position: LogPosition): Promise<void>;
}

export interface RebuildOutcome {
  events: number;
  checkpoint: LogPosition;
}

const ROWS_PER_CHUNK = 1000;

/**
 * Each table's rows in COPY text, a thousand at a time, handed to that table's outlet: an open
 * COPY (beside) or a list copied after the fold (in place). Small pieces die young.
 */
class Outbox implements RebuildSink {
  private readonly pending = new Map<string, unknown[][]>();

  constructor(
    private readonly tables: readonly string[],
    private readonly outlet: (table: string, chunk: string) => void,
  ) {
    for (const table of tables) this.pending.set(table, []);
  }

  row(table: string, values: readonly unknown[]): void {
    const rows = this.pending.get(table);
    if (!rows) throw new Error(`a rebuild row for '${table}', which is not one of the projection's tables (${this.tables.join(', ')})`);
    rows.push(values as unknown[]);
    if (rows.length >= ROWS_PER_CHUNK) this.flush(table);
  }

  flush(table: string): void {
    const rows = this.pending.get(table)!;
    if (rows.length) this.outlet(table, copyRows(rows));
    this.pending.set(table, []);
  }

  flushAll(): void {
    for (const table of this.tables) this.flush(table);
  }
}

type Heads = Map<string, Map<string, number>>;

/** The last stream version of every stream, by tenant and stream id. */
async function streamHeads(trx: Executor): Promise<Heads> {
  const log: Kysely<StoreTables> = slice(trx);
  const rows = await log.selectFrom('fl_streams').select(['tenant', 'stream_id', 'version']).execute();
  const heads: Heads = new Map();
  for (const r of rows) {
    let ofTenant = heads.get(r.tenant);
    if (!ofTenant) heads.set(r.tenant, (ofTenant = new Map()));
    ofTenant.set(r.stream_id, r.version);
  }
  return heads;
}

/** The projection's rebuilder, told which events end their stream in the log read (`heads`, one snapshot). */
function rebuilderOf(projection: Projection, sink: RebuildSink, heads: Heads): ProjectionRebuild {
  const lastOfStream = (e: RecordedEvent): boolean => heads.get(e.tenant)?.get(e.streamId) === e.streamVersion;
  const rebuild = projection.rebuilder!(sink, lastOfStream);
  const missing = projection.tables.filter((t) => !rebuild.columns[t]);
  if (missing.length) throw new Error(`the rebuilder of '${projection.name}' names no columns for ${missing.join(', ')}`);
  return rebuild;
}

/** Folds the log from position 0, the next page read while one folds; `failed` stops it early. */
async function foldLog(trx: Executor, pageSize: number, rebuild: ProjectionRebuild, failed: () => unknown = () => null): Promise<RebuildOutcome> {
  const page = (after: LogPosition): ReturnType<typeof readLog> => {
    const read = readLog(trx, after, pageSize);
    read.catch(() => undefined); // awaited below; a failure must not also go unhandled
    return read;
  };
  let checkpoint = LOG_START;
  let events = 0;
  let next = page(checkpoint);
  for (;;) {
    const batch = await next;
    const error = failed();
    if (error) throw error;
    if (batch.length === 0) break;
    events += batch.length;
    checkpoint = batch[batch.length - 1]!.logPosition;
    next = page(checkpoint);
    rebuild.add(batch);
  }
  rebuild.end();
  return { events, checkpoint };
}

/** What to analyze of `table` (loaded as `as`): the projection's named columns, or all of it. */
function analyzeTarget(projection: Projection, table: string, as = table) {
  const columns = projection.statistics?.[table];
  return columns ? sql`${sql.ref(as)} (${sql.join(columns.map((c) => sql.ref(c)))})` : sql.ref(as);
}

/**
 * Drops the indexes and the constraints of `kinds` (p: primary keys, x: exclusion) of `tables`
 * and returns how to recreate them from their own stored definitions: a bulk load then checks
 * and builds each one once, by sorting, instead of row by row. Transactional, like all DDL.
 */
async function deferIndexes(trx: Executor, tables: readonly string[], kinds: readonly string[] = ['p', 'x']): Promise<{ rebuild(): Promise<void> }> {
  const defs = await sql<{ tbl: string; name: string; def: string; kind: 'constraint' | 'index' }>`
    SELECT conrelid::regclass::text AS tbl, conname AS name, pg_get_constraintdef(oid) AS def, 'constraint' AS kind
    FROM pg_constraint WHERE conrelid = ANY(${tables}::regclass[]) AND contype = ANY(${kinds})
    UNION ALL
    SELECT x.indrelid::regclass::text, i.relname, pg_get_indexdef(i.oid), 'index'
    FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
    WHERE x.indrelid = ANY(${tables}::regclass[])
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`.execute(trx);
  for (const d of defs.rows) {
    if (d.kind === 'constraint') await sql`ALTER TABLE ${sql.ref(d.tbl)} DROP CONSTRAINT ${sql.ref(d.name)}`.execute(trx);
    else await sql`DROP INDEX ${sql.ref(d.name)}`.execute(trx);
  }
  return {
    rebuild: async () => {
      for (const d of defs.rows) {
        if (d.kind === 'constraint') await sql`ALTER TABLE ${sql.ref(d.tbl)} ADD CONSTRAINT ${sql.ref(d.name)} ${sql.raw(d.def)}`.execute(trx);
        else await sql.raw(d.def).execute(trx);
      }
    },
  };
}

// ---- beside ------------------------------------------------------------------------------------

const shadowOf = (table: string): string => `${table}__rebuild`;

/** A table's indexes, each with its definition less its own name and its table's. */
async function indexesOf(trx: Executor, table: string): Promise<{ name: string; def: string }[]> {
  const rows = await sql<{ name: string; def: string }>`
    SELECT c.relname AS name, regexp_replace(pg_get_indexdef(x.indexrelid), '^CREATE (UNIQUE )?INDEX \\S+ ON \\S+ ', '\\1') AS def
    FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
    WHERE x.indrelid = ${table}::regclass ORDER BY c.relname`.execute(trx);
  return rows.rows;
}

export async function rebuildBeside(db: Kysely<DatabaseSchema>, sessions: Sessions, plan: RebuildPlan): Promise<RebuildOutcome> {
  const { projection } = plan;
  const outlets = new Map(projection.tables.map((t) => [t, new Readable({ read: () => undefined })]));
  // A failed fold destroys them with its error; the loads see it (or never start their copy).
  for (const outlet of outlets.values()) outlet.on('error', () => undefined);
  let failure: unknown = null;
  const outcome = await sessions((reader) =>
    reader.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        // One snapshot for the stream heads and every page: a stream's head is its last event read.
        const heads = await streamHeads(trx);
        const outbox = new Outbox(projection.tables, (table, chunk) => outlets.get(table)!.push(chunk));
        const rebuild = rebuilderOf(projection, outbox, heads);
        // One session per table: a new table like the live one, filled while the log is read.
        const loads = projection.tables.map((table) =>
          sessions((s) =>
            s.db.transaction().execute(async (ltrx) => {
              const shadow = shadowOf(table);
              await sql`SELECT set_config('synchronous_commit', 'off', true)`.execute(ltrx);
              await sql`DROP TABLE IF EXISTS ${sql.ref(shadow)}`.execute(ltrx);
              await sql`CREATE TABLE ${sql.ref(shadow)} (LIKE ${sql.ref(table)} INCLUDING ALL)`.execute(ltrx);
              // Keys and indexes are built once the rows are in; the overlap constraint stays and
              // checks rows as they come, while the log is still being read (its GiST index has
              // no sorted build, so it would cost as much at the end, and hold up the swap).
              const deferred = await deferIndexes(ltrx, [shadow], ['p']);
              await s.copyIn(shadow, rebuild.columns[table]!, outlets.get(table)!, { freeze: true });
              await deferred.rebuild();
              await sql`ANALYZE ${analyzeTarget(projection, table, shadow)}`.execute(ltrx);
            }),
          ),
        );
        for (const load of loads) load.catch((error) => (failure ??= error));
        let folded: RebuildOutcome;
        try {
          folded = await foldLog(trx, plan.pageSize, rebuild, () => failure);
          outbox.flushAll();
        } catch (error) {
          // The loads fail with it and roll back: no half-filled table is committed.
          for (const outlet of outlets.values()) outlet.destroy(error instanceof Error ? error : new Error(String(error)));
          await Promise.allSettled(loads);
          throw error;
        }
        for (const outlet of outlets.values()) outlet.push(null);
        await Promise.all(loads);
        return folded;
      }),
  );
  // The swap: short, and the only moment readers and writers of these tables wait.
  await db.transaction().execute(async (trx) => {
    await plan.lock(trx);
    await sql`LOCK TABLE ${sql.join(projection.tables.map((t) => sql.ref(t)))} IN ACCESS EXCLUSIVE MODE`.execute(trx);
    // The views over these tables (the projection's read views, migrations/022) are dropped with
    // the live tables' names and made again, from their own definitions, over the new ones.
    const views = await dependentViews(trx, projection.tables);
    for (const view of views) await sql`DROP VIEW ${sql.ref(view.name)}`.execute(trx);
    for (const table of projection.tables) {
      const shadow = shadowOf(table);
      const live = await indexesOf(trx, table);
      const fresh = await indexesOf(trx, shadow);
      await sql`DROP TABLE ${sql.ref(table)}`.execute(trx);
      await sql`ALTER TABLE ${sql.ref(shadow)} RENAME TO ${sql.ref(table)}`.execute(trx);
      // The live names again (a key's or constraint's index renames its constraint too), so that
      // migrations and the next rebuild find them.
      for (const index of fresh) {
        const twin = live.findIndex((l) => l.def === index.def);
        if (twin < 0) throw new Error(`rebuild of ${table}: no live index is defined as ${index.def}`);
        const name = live.splice(twin, 1)[0]!.name;
        await sql`ALTER INDEX ${sql.ref(index.name)} RENAME TO ${sql.ref(name)}`.execute(trx);
      }
    }
    for (const view of views) await sql`CREATE VIEW ${sql.ref(view.name)} AS ${sql.raw(view.definition)}`.execute(trx);
    await plan.checkpoint(trx, outcome.checkpoint);
  });
  return outcome;
}

/** The views that read any of `tables`, with their definitions. */
async function dependentViews(trx: Executor, tables: readonly string[]): Promise<{ name: string; definition: string }[]> {
  const rows = await sql<{ name: string; definition: string }>`
    SELECT DISTINCT v.relname AS name, pg_get_viewdef(v.oid) AS definition
    FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid JOIN pg_class v ON v.oid = r.ev_class
    WHERE d.classid = 'pg_rewrite'::regclass AND d.refobjid = ANY(${tables}::regclass[]) AND v.relkind = 'v'
    ORDER BY 1`.execute(trx);
  return rows.rows;
}

// ---- in place ----------------------------------------------------------------------------------

export async function rebuildInPlace(db: Kysely<DatabaseSchema>, session: Session, plan: RebuildPlan): Promise<RebuildOutcome> {
  const { projection } = plan;
  const outcome = await session.db.transaction().execute(async (trx) => {
    await plan.lock(trx);
    await projection.reset(trx);
    const deferred = await deferIndexes(trx, projection.tables);
    const heads = await streamHeads(trx);
    const chunks = new Map(projection.tables.map((t) => [t, [] as string[]]));
    const outbox = new Outbox(projection.tables, (table, chunk) => chunks.get(table)!.push(chunk));
    const rebuild = rebuilderOf(projection, outbox, heads);
    const folded = await foldLog(trx, plan.pageSize, rebuild);
    outbox.flushAll();
    for (const table of projection.tables) {
      const copied = chunks.get(table)!;
      chunks.delete(table); // the copy takes them as they go
      await session.copyIn(table, rebuild.columns[table]!, drain(copied), { freeze: true });
    }
    await deferred.rebuild();
    await plan.checkpoint(trx, folded.checkpoint);
    return folded;
  });
  await sql`ANALYZE ${sql.join(projection.tables.map((t) => analyzeTarget(projection, t)))}`.execute(db);
  return outcome;
}

/** Hands out a list's items, letting go of each as it goes. */
function* drain(items: string[]): Generator<string> {
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    items[i] = '';
    yield item;
  }
}
