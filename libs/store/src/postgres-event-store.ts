/**
 * The event store on PostgreSQL (native or PGlite), through Kysely.
 *
 * Global order. A bigserial alone is not a safe reading order: transaction A can draw position
 * 10, transaction B position 11, and B can commit first; a reader that saw 11 and moved its
 * checkpoint past 10 would never see A's event. Two known cures:
 *
 * - Emmett's: store `pg_current_xact_id()` with each event, read in (transaction id, position)
 *   order and only below `pg_snapshot_xmin(pg_current_snapshot())`. Appends never wait for each
 *   other, but the xmin horizon is shared by every database of the server: one idle-in-
 *   transaction session or long report anywhere on it stalls every reader. We hit exactly that
 *   with tests sharing a server, and a memory layer must not depend on its neighbours' hygiene.
 * - Ours: positions are drawn in commit order. An append takes a transaction-scoped advisory
 *   lock just before it inserts its events and keeps it until it commits, so a later position
 *   can never commit before an earlier one. A reader then follows `global_position` alone and
 *   can never be passed by a late commit (a rolled-back append leaves a harmless gap). The price
 *   is that appends serialise from the insert to the commit, about a millisecond each; batches
 *   amortise it (see the benchmark).
 *
 * The transaction id is still recorded: it is the "commit" half of the log position, the same
 * (commit, prepare) shape as EventStoreDB's `$all` positions.
 */
import type { Kysely, RawBuilder, Selectable } from 'kysely';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { ExpectedVersionConflict, FOLLOW_UP_REFUSED, FollowUpRefused } from './errors';
import { PREPARED } from './database';
import {
  ERASURE_RECORDED,
  type AppendContext,
  type AppendFollowUp,
  type AppendResult,
  type EventStore,
  type LogPosition,
  type LogVerification,
  type ReadStreamResult,
  type RecordedEvent,
  type LogRedaction,
  type RedactedHash,
  type StreamAppend,
  type Backlog,
  type LogSubscription,
  type SubscribeOptions,
} from './event-store.port';
import { type DatabaseSchema, type EventsTable, type Executor, slice, type StoreTables } from './schema';
import { AppendSignal, subscriptionByReading } from './subscription';

/** An event's row as read (ids as text). */
type EventRow = Omit<Selectable<EventsTable>, 'actor'> & {
  /** Absent from rows that fl_append returns with a refusal (they are decided on, not shown). */
  actor?: string | null;
};

/** The advisory lock key that orders appends ('fl' in ASCII + 1); fl_append takes it. */
export const APPEND_LOCK = 0x666c0001;

/** The log's rows, every column, ids as text: callers add the filter and the order. */
const selectEvents = (db: Kysely<StoreTables>) =>
  db
    .selectFrom('fl_events')
    .select([
      'global_position',
      sql<string>`transaction_id::text`.as('transaction_id'),
      'tenant',
      'stream_id',
      'stream_version',
      sql<string>`event_id::text`.as('event_id'),
      'type',
      'data',
      'command_id',
      'causation_id',
      'correlation_id',
      'batch',
      'recorded_at',
      'actor',
    ]);

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    globalPosition: Number(row.global_position),
    logPosition: { commit: row.transaction_id, prepare: Number(row.global_position) },
    tenant: row.tenant,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    eventId: row.event_id,
    type: row.type,
    data: row.data,
    commandId: row.command_id,
    causationId: row.causation_id,
    correlationId: row.correlation_id,
    batch: row.batch,
    recordedAt: row.recorded_at,
    actor: row.actor ?? null,
  };
}

interface AppendReply {
  /** Set when a stream was not at the expected version: nothing was written (fl_append). */
  conflict?: { stream: string; expected: number | null; actual: number; events: (Omit<EventRow, 'recorded_at'> & { recorded_at: string })[] | null };
  duplicate: boolean;
  position: number;
  /** For a duplicate: the fingerprint the command id was first claimed with. */
  fingerprint?: string | null;
  positions?: number[];
  versions: Record<string, number>;
  then?: unknown;
}

/** How often a caught-up subscription looks for what other processes committed (this process's own appends wake it at once). */
export const SUBSCRIPTION_POLL_MS = 100;

export class PostgresEventStore implements EventStore {
  readonly capabilities = { inlineProjection: true, redact: true, logInDatabase: true };
  private readonly appends = new AppendSignal();

  private readonly db: Kysely<StoreTables>;

  constructor(
    db: Executor,
    private readonly options: { subscriptionPollMs?: number } = {},
  ) {
    this.db = slice(db);
  }

  /** One statement, one round trip, one commit (see appendWith). */
  async append(context: AppendContext, appends: StreamAppend[], followUp?: AppendFollowUp): Promise<AppendResult> {
    const result = await appendWith(this.db, context, appends, followUp);
    this.appends.notify();
    return result;
  }

  /**
   * Polls (see subscription.ts): PostgreSQL could push with LISTEN/NOTIFY, but a NOTIFY in every
   * append would serialise all commits on the notification queue's lock, and the log's order
   * already costs appends one lock each.
   */
  subscribe(after: LogPosition, deliver: (events: RecordedEvent[]) => Promise<void>, options: SubscribeOptions = {}): LogSubscription {
    return subscriptionByReading((from, limit) => this.readAll(from, limit), this.appends, after, deliver, {
      ...options,
      pollMs: this.options.subscriptionPollMs ?? SUBSCRIPTION_POLL_MS,
    });
  }

  /**
   * An erasure's write (migrations/019), in one transaction: holds the append lock (no append
   * lands meanwhile), seals every event not sealed yet (so each rewritten row's salted content
   * hash is in the chain), rewrites the named rows' data, drops their salts, hashes what they say
   * now, and appends what `record` builds from those hashes (the erasure's own events). A version
   * conflict in that append undoes the rewrite too.
   */
  async redact(context: AppendContext, redactions: LogRedaction[], record: (hashes: RedactedHash[]) => StreamAppend[]): Promise<AppendResult> {
    const result = await this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${APPEND_LOCK}), set_config('factledger.erasing', 'on', true)`.execute(trx);
      while (Number((await sql<{ n: number }>`SELECT fl_seal(5000) AS n`.execute(trx)).rows[0]!.n) === 5000);
      const rows = redactions.map((r) => ({ p: r.position, d: r.data }));
      const hashes: RedactedHash[] = [];
      for (let i = 0; i < rows.length; i += 1000) {
        const page = JSON.stringify(rows.slice(i, i + 1000));
        const updated = await sql<{ position: string; hash: string }>`
          WITH changed AS (
            UPDATE fl_events e SET data = r.d FROM jsonb_to_recordset(${page}::jsonb) AS r(p bigint, d jsonb)
            WHERE e.global_position = r.p AND e.tenant = ${context.tenant}
            RETURNING e.*),
          unsalted AS (DELETE FROM fl_event_salts s USING changed c WHERE s.global_position = c.global_position)
          SELECT c.global_position AS position, encode(sha256(fl_event_content(c.global_position, c.tenant, c.stream_id, c.stream_version, c.event_id, c.type, c.data,
            c.command_id, c.causation_id, c.correlation_id, c.batch, c.recorded_at, c.actor)), 'hex') AS hash
          FROM changed c ORDER BY 1`.execute(trx);
        if (updated.rows.length !== Math.min(1000, rows.length - i)) throw new Error("an erasure named an event that is not in its tenant's log");
        for (const u of updated.rows) hashes.push([Number(u.position), u.hash]);
      }
      await sql`SELECT set_config('factledger.erasing', 'off', true)`.execute(trx);
      return appendWith(trx, context, record(hashes));
    });
    this.appends.notify();
    return result;
  }

  async readStream(tenant: string, streamId: string): Promise<ReadStreamResult> {
    const rows = await selectEvents(this.db).where('tenant', '=', tenant).where('stream_id', '=', streamId).orderBy('stream_version').execute();
    const events = rows.map(toRecordedEvent);
    return { version: events.length ? events[events.length - 1]!.streamVersion : -1, events };
  }

  readAll(after: LogPosition, limit: number, executor?: Executor): Promise<RecordedEvent[]> {
    return readFrom(executor ? slice(executor) : this.db, after, limit);
  }

  async readType(tenant: string, type: string, after: number, limit: number): Promise<RecordedEvent[]> {
    // The type as a literal, so that a partial index on it (fl_events_messages, migrations/019)
    // matches whatever plan the statement gets; an event type is a name, never free text.
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(type)) throw new Error(`not an event type: ${JSON.stringify(type)}`);
    const rows = await selectEvents(this.db).where('tenant', '=', tenant).where('type', '=', sql.lit(type)).where('global_position', '>', after).orderBy('global_position').limit(limit).execute();
    return rows.map(toRecordedEvent);
  }

  async readBatch(tenant: string, batch: string): Promise<RecordedEvent[]> {
    const rows = await selectEvents(this.db).where('tenant', '=', tenant).where('batch', '=', batch).orderBy('global_position').execute();
    return rows.map(toRecordedEvent);
  }

  async head(): Promise<number> {
    const row = await this.db
      .selectFrom('fl_events')
      .select((eb) => eb.fn.max('global_position').as('head'))
      .executeTakeFirst();
    return Number(row?.head ?? 0);
  }

  async commandClaim(tenant: string, commandId: string): Promise<{ position: number; fingerprint: string | null } | null> {
    const claim = await this.db.selectFrom('fl_commands').select(['last_position as position', 'fingerprint']).where('tenant', '=', tenant).where('command_id', '=', commandId).executeTakeFirst();
    return claim ? { position: Number(claim.position), fingerprint: claim.fingerprint } : null;
  }

  async behind(after: LogPosition, upTo: number | null): Promise<Backlog> {
    const r = (await backlogStatement(sql<number>`${after.prepare}::bigint`, upTo).execute(this.db)).rows[0]!;
    return { events: r.behind, oldest: r.oldest === null ? null : new Date(r.oldest) };
  }

  /** Chains the events not sealed yet (migrations/functions/fl_seal.sql), a page at a time; how many it sealed. */
  async seal(options: { pageSize?: number } = {}): Promise<number> {
    const pageSize = options.pageSize ?? 5000;
    let sealed = 0;
    for (;;) {
      const n = Number((await sql<{ n: number }>`SELECT fl_seal(${pageSize}) AS n`.execute(this.db)).rows[0]!.n);
      sealed += n;
      if (n < pageSize) return sealed;
    }
  }

  /**
   * Seals what is not sealed yet, then walks the chain in position order, a page at a time, beside
   * the events: each event's content hash against its row as it stands now, each link against
   * sha256(previous hash || content hash), a chain row without its event (deleted), an event
   * without a chain row before sealed ones (inserted), up to the last sealed event. Stops at the
   * first that fails.
   */
  async verify(options: { pageSize?: number } = {}): Promise<LogVerification> {
    const pageSize = options.pageSize ?? 5000;
    await this.seal({ pageSize });
    // The walk ends at the last sealed event. An event after it committed after the seal above
    // (an append that was running beside it, or one whose client died mid-statement and whose
    // server finished it): not yet chained, not tampered with; the next seal chains it.
    const last = Number(
      (
        await this.db
          .selectFrom('fl_event_chain')
          .select((eb) => eb.fn.max('global_position').as('last'))
          .executeTakeFirstOrThrow()
      ).last ?? 0,
    );
    // What each rewritten row must say now, as its (latest) erasure recorded it. Those erasure
    // events are themselves checked below, like every other event.
    const redacted = new Map<number, string>();
    const listed = await sql<{ position: string; hash: string }>`
      SELECT (x ->> 0)::bigint AS position, x ->> 1 AS hash
      FROM fl_events e, jsonb_array_elements(e.data -> 'redacted') WITH ORDINALITY AS r(x, n)
      WHERE e.type = ${ERASURE_RECORDED} ORDER BY e.global_position, r.n`.execute(this.db);
    for (const r of listed.rows) redacted.set(Number(r.position), r.hash);
    let previous = Buffer.alloc(0);
    let headPosition = 0;
    let events = 0;
    // Pages of positions (from, from + pageSize], the chain's rows beside the log's.
    for (let from = 0; from < last; from += pageSize) {
      const page = await sql<{ position: string; sealed: boolean; present: boolean; salted: boolean; hash: Buffer | null; content_hash: Buffer | null; content_now: Buffer | null }>`
        SELECT coalesce(c.global_position, e.global_position) AS position, c.global_position IS NOT NULL AS sealed, e.global_position IS NOT NULL AS present,
          s.salt IS NOT NULL AS salted, c.hash, c.content_hash,
          sha256(coalesce(s.salt, ''::bytea) || fl_event_content(e.global_position, e.tenant, e.stream_id, e.stream_version, e.event_id, e.type, e.data, e.command_id, e.causation_id, e.correlation_id, e.batch, e.recorded_at, e.actor)) AS content_now
        FROM (SELECT * FROM fl_event_chain WHERE global_position > ${from} AND global_position <= ${Math.min(from + pageSize, last)}) c
        FULL JOIN (SELECT * FROM fl_events WHERE global_position > ${from} AND global_position <= ${Math.min(from + pageSize, last)}) e ON e.global_position = c.global_position
        LEFT JOIN fl_event_salts s ON s.global_position = coalesce(c.global_position, e.global_position)
        ORDER BY 1`.execute(this.db);
      for (const row of page.rows) {
        const position = Number(row.position);
        if (!row.present) return { ok: false, events, position, problem: 'deleted', message: `event ${position} was sealed into the chain and is gone from the log: it was deleted` };
        if (!row.sealed) return { ok: false, events, position, problem: 'missing', message: `event ${position} is not in the chain though later events are: it was inserted behind the ledger's back` };
        const content = Buffer.from(row.content_hash!);
        const erased = redacted.get(position);
        if (row.salted) {
          if (!content.equals(Buffer.from(row.content_now!)))
            return { ok: false, events, position, problem: 'content', message: `event ${position} does not say what was hashed when it was sealed: it was altered` };
        } else if (erased === undefined) {
          return { ok: false, events, position, problem: 'content', message: `event ${position} lost its salt and no erasure names it: it was altered` };
        } else if (Buffer.from(row.content_now!).toString('hex') !== erased) {
          return { ok: false, events, position, problem: 'content', message: `event ${position} does not say what its erasure left: it was altered` };
        }
        const hash = Buffer.from(row.hash!);
        if (!createHash('sha256').update(previous).update(content).digest().equals(hash)) {
          return { ok: false, events, position, problem: 'link', message: `the chain breaks at event ${position}: a hash of the chain was altered` };
        }
        previous = hash;
        headPosition = position;
        events++;
      }
    }
    return { ok: true, events, headPosition, head: events ? previous.toString('hex') : null };
  }
}

/**
 * One statement, so one round trip and one commit: `fl_append` (migrations/functions/fl_append.sql) claims the
 * command id, checks and bumps the stream versions, takes the append lock, inserts the events
 * and runs the follow-up, all in the statement's own transaction (or the caller's). A stream not
 * at its expected version writes nothing and comes back as it stands (fl_append), carried by
 * the ExpectedVersionConflict.
 */
async function appendWith(executor: Executor<StoreTables>, context: AppendContext, appends: StreamAppend[], followUp?: AppendFollowUp): Promise<AppendResult> {
  const streams = appends
    .filter((a) => a.events.length > 0)
    .map((a) => ({
      s: a.streamId,
      e: a.expectedVersion === 'no-stream' ? -1 : a.expectedVersion === 'any' ? null : a.expectedVersion,
      n: a.events.length,
    }))
    .sort((a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0)); // one lock order for every writer
  if (streams.length === 0) return { position: 0, positions: [], duplicate: false, streamVersions: {}, followUp: null };
  const events: { s: string; i: string; t: string; d: unknown }[] = [];
  for (const a of appends) for (const e of a.events) events.push({ s: a.streamId, i: e.eventId, t: e.type, d: e.data });
  const result = await sql<{ r: AppendReply }>`${PREPARED}SELECT fl_append(${context.tenant}, ${context.commandId}, ${context.causationId}, ${context.correlationId}, ${context.batch},
        ${context.recordedAt.toISOString()}::timestamptz, ${JSON.stringify(streams)}::jsonb, ${JSON.stringify(events)}::jsonb,
        ${followUp?.fn ?? null}::regproc, ${followUp ? JSON.stringify(followUp.payload) : null}::jsonb) AS r
      -- The actor of this append's events (fl_events.actor's default, migrations/017) and the fingerprint its
      -- command id is claimed with (fl_append, migrations/027), for this transaction only.
      FROM (SELECT set_config('factledger.actor', ${context.actor ?? ''}, true), set_config('factledger.command_fingerprint', ${context.commandFingerprint ?? ''}, true)) AS meta`
    .execute(executor)
    .catch(refusedByFollowUp);
  const reply = result.rows[0]!.r;
  if (reply.conflict) {
    const c = reply.conflict;
    const current = c.events ? { version: c.actual, events: c.events.map((e) => toRecordedEvent({ ...e, recorded_at: new Date(e.recorded_at) })) } : undefined;
    throw new ExpectedVersionConflict(c.stream, c.expected === -1 ? 'no stream' : String(c.expected), c.actual, current);
  }
  return {
    position: Number(reply.position ?? 0),
    positions: (reply.positions ?? []).map(Number),
    duplicate: reply.duplicate,
    ...(reply.duplicate ? { commandFingerprint: reply.fingerprint ?? null } : {}),
    streamVersions: reply.versions,
    followUp: reply.duplicate ? null : (reply.then ?? null),
  };
}

/** A follow-up's refusal (SQLSTATE FL412, its reason as JSON in the DETAIL) as FollowUpRefused; any other error as it is. */
function refusedByFollowUp(error: unknown): never {
  const e = error as { code?: string; detail?: string };
  if (e.code === FOLLOW_UP_REFUSED) throw new FollowUpRefused(e.detail ? JSON.parse(e.detail) : null);
  throw error;
}

/** Reads the log in commit order after `after`; usable inside a projection's transaction. */
export function readLog(executor: Executor, after: LogPosition, limit: number): Promise<RecordedEvent[]> {
  return readFrom(slice(executor), after, limit);
}

async function readFrom(db: Kysely<StoreTables>, after: LogPosition, limit: number): Promise<RecordedEvent[]> {
  const rows = await selectEvents(db)
    .where('global_position', '>', sql<number>`${after.prepare}::bigint`)
    .orderBy('global_position')
    .limit(limit)
    .execute();
  return rows.map(toRecordedEvent);
}

/** What backlogStatement gives: events behind, the oldest one's time, the checkpoint. */
export interface BacklogRow {
  behind: number;
  oldest: Date | string | null;
  checkpoint: number | string;
}

/**
 * The backlog past a checkpoint as one statement (one row, also for an empty log), for a reader
 * that counts it inside a statement of its own, in the same snapshot: `after` is the checkpoint's
 * prepare position as an SQL expression, `upTo` bounds the count (none when null).
 */
export function backlogStatement(after: RawBuilder<number>, upTo: number | null): RawBuilder<BacklogRow> {
  const bound = upTo === null ? sql`` : sql`AND e.global_position <= ${upTo}`;
  return sql`
    SELECT count(e.global_position)::int AS behind, min(e.recorded_at) AS oldest, c.prepare AS checkpoint
    FROM (SELECT ${after} AS prepare) c
    LEFT JOIN fl_events e ON e.global_position > c.prepare ${bound}
    GROUP BY c.prepare`;
}

/**
 * Whether the log table on `executor` holds the event at `position`: on a standby, whether the
 * write that recorded it has been replayed there yet (the read models' rows come in the same commit).
 */
export async function logHoldsPosition(executor: Executor<DatabaseSchema>, position: number): Promise<boolean> {
  const row = await slice<StoreTables, DatabaseSchema>(executor).selectFrom('fl_events').select('global_position').where('global_position', '=', position).executeTakeFirst();
  return row !== undefined;
}
