/**
 * The event store on KurrentDB (EventStoreDB): the same contract as the PostgreSQL adapter (the
 * contract suite, libs/testing/src/event-store.contract.ts, runs on both), for users who outgrow
 * one PostgreSQL for the log. The read models stay in PostgreSQL.
 *
 * Layout: **one KurrentDB stream per tenant** (`factledger-<tenant>`). The ledger's streams (one
 * per fact key, answer, message record…) are logical streams inside it: each event's metadata
 * names its logical stream and version, its tenant, command, causation, correlation, batch,
 * recorded time and actor. Why not a KurrentDB stream per key: KurrentDB has no transaction over
 * several streams, and the ledger writes batches that must land whole or not at all (a message's
 * statements, a rollback, a triage apply, an erasure's record). A batch here is one append to one
 * stream, which KurrentDB writes atomically; the tenant stream's expected revision makes every
 * writer that decided on a stale state conflict, and the logical streams' expected versions are
 * checked against the state read just before, up to that revision. Tenants scale out; one
 * tenant's writes are ordered, as the PostgreSQL adapter orders all writes.
 *
 * - Positions: the `$all` prepare position of each event is its global position (commit and
 *   prepare as the log position), so the read side's checkpoints and `minPosition` work unchanged.
 *   They rise, but not by one.
 * - A retried command: its events' ids are derived from the command id (and the event's place
 *   in it), so the server itself drops a second copy of an append it already wrote; the adapter
 *   also answers `duplicate` from the command ids it has read, with the fingerprint their events
 *   carry (`f`).
 * - Reads of one tenant come from a copy of its stream kept in process and brought up to date
 *   (the events after the last revision read) before every read and append: one round trip
 *   when nothing changed. The copy holds every event of the tenants this process touched.
 * - No inline projection (`followUp` is null: the projection runner applies the events) and no
 *   rewrite in place: KurrentDB's events are immutable, so `redact` (erasure) refuses with
 *   StoreCapabilityError. The hash chain is computed at `verify` over what the server returns:
 *   KurrentDB keeps no chain of ours, so `verify` finds gaps and hands back the head hash to
 *   compare with one kept elsewhere, but cannot tell an edited event by itself.
 */
import { createHash } from 'node:crypto';
import { ExpectedVersionConflict, StoreCapabilityError } from '../errors';
import type {
  AppendContext,
  AppendFollowUp,
  AppendResult,
  EventStore,
  LogPosition,
  LogRedaction,
  LogVerification,
  ReadStreamResult,
  RecordedEvent,
  RedactedHash,
  StreamAppend,
  Backlog,
  LogSubscription,
  SubscribeOptions,
} from '../event-store.port';
import { backlogByReading } from '../backlog';
import { DEFAULT_SUBSCRIPTION_PAGE, runSubscription } from '../subscription';
import {
  type AllStreamResolvedEvent,
  BACKWARDS,
  END,
  FORWARDS,
  jsonEvent,
  type KurrentClient,
  NO_STREAM,
  START,
  StreamNotFoundError,
  streamNameFilter,
  WrongExpectedVersionError,
} from './kurrentdb-client';

/** What each event's metadata carries, in short keys (every event pays for them). */
interface Meta {
  t: string;
  s: string;
  v: number;
  e: string;
  c: string | null;
  k: string | null;
  r: string | null;
  b: string | null;
  at: string;
  a: string | null;
  /** The command's fingerprint (AppendContext.commandFingerprint); only on events of a command that has one. */
  f?: string;
}

/** The copy of one tenant's stream this process holds. */
interface TenantLog {
  /** The last revision of the tenant stream read (-1: none). */
  revision: number;
  events: RecordedEvent[];
  streams: Map<string, RecordedEvent[]>;
  /** The last position each command id appended, and the fingerprint it was claimed with. */
  commands: Map<string, { position: number; fingerprint: string | null }>;
}

export const KURRENTDB_STREAM_PREFIX = 'factledger-';

/** Events of `$all` read in one call. */
const PAGE = 500;

/** Attempts of one append when other writers keep moving the tenant stream first. */
const APPEND_ATTEMPTS = 20;

/**
 * A read's events, its gRPC call cancelled however the loop over it ends: a loop left early (a
 * page filled) would otherwise leave the call open, and the client's `dispose` waits for it.
 */
async function* drained<T>(read: AsyncIterable<T> & { cancel(): Promise<void> }): AsyncGenerator<T> {
  try {
    yield* read;
  } finally {
    await read.cancel();
  }
}

/** A log position as a `$all` position; null for the start of the log. */
const allPosition = (p: LogPosition): { commit: bigint; prepare: bigint } | null =>
  p.prepare === 0 && p.commit === '0' ? null : { commit: BigInt(p.commit === '0' ? p.prepare : p.commit), prepare: BigInt(p.prepare) };

const copy = (e: RecordedEvent): RecordedEvent => ({ ...structuredClone(e), recordedAt: new Date(e.recordedAt.getTime()), logPosition: { ...e.logPosition } });

/** A UUID made from the command id and the event's place in it: the same command, the same ids. */
function derivedEventId(tenant: string, commandId: string, index: number): string {
  const h = createHash('sha256').update(`${tenant}\u0000${commandId}\u0000${index}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

export class KurrentDbEventStore implements EventStore {
  readonly capabilities = { inlineProjection: false, redact: false, logInDatabase: false };
  private readonly tenants = new Map<string, TenantLog>();
  /** One append or refresh of a tenant at a time in this process. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly client: KurrentClient,
    private readonly prefix = KURRENTDB_STREAM_PREFIX,
  ) {}

  /** The KurrentDB stream of a tenant (its name escaped, so that no tenant's stream is another's prefix). */
  streamOf(tenant: string): string {
    return `${this.prefix}${encodeURIComponent(tenant)}`;
  }

  private serialised<T>(tenant: string, work: () => Promise<T>): Promise<T> {
    const run = (this.queues.get(tenant) ?? Promise.resolve()).then(work);
    this.queues.set(
      tenant,
      run.catch(() => undefined),
    );
    return run;
  }

  async append(context: AppendContext, appends: StreamAppend[], _followUp?: AppendFollowUp): Promise<AppendResult> {
    const writes = appends.filter((a) => a.events.length > 0);
    if (writes.length === 0) return { position: 0, positions: [], duplicate: false, streamVersions: {}, followUp: null };
    return this.serialised(context.tenant, async () => {
      for (let attempt = 1; ; attempt++) {
        const log = await this.refresh(context.tenant);
        const done = context.commandId === null ? undefined : log.commands.get(context.commandId);
        if (done !== undefined) return { position: done.position, positions: [], duplicate: true, commandFingerprint: done.fingerprint, streamVersions: {}, followUp: null };
        const events: ReturnType<typeof jsonEvent>[] = [];
        for (const a of writes) {
          const actual = (log.streams.get(a.streamId)?.length ?? 0) - 1;
          const expected = a.expectedVersion === 'no-stream' ? -1 : a.expectedVersion;
          if (expected !== 'any' && expected !== actual) {
            throw new ExpectedVersionConflict(a.streamId, expected === -1 ? 'no stream' : String(expected), actual, this.streamNow(log, a.streamId));
          }
          a.events.forEach((e, i) => {
            const meta: Meta = {
              t: context.tenant,
              s: a.streamId,
              v: actual + 1 + i,
              e: e.eventId,
              c: context.commandId,
              k: context.causationId,
              r: context.correlationId,
              b: context.batch,
              at: context.recordedAt.toISOString(),
              a: context.actor ?? null,
              ...(context.commandId !== null && context.commandFingerprint ? { f: context.commandFingerprint } : {}),
            };
            const id = context.commandId === null ? e.eventId : derivedEventId(context.tenant, context.commandId, events.length);
            events.push(jsonEvent({ id, type: e.type, data: structuredClone(e.data) as never, metadata: meta as never }));
          });
        }
        try {
          await this.client.appendToStream(this.streamOf(context.tenant), events, { expectedRevision: log.revision < 0 ? NO_STREAM : BigInt(log.revision) });
        } catch (error) {
          // Another process wrote to the tenant first: read what it wrote and decide again.
          if (error instanceof WrongExpectedVersionError && attempt < APPEND_ATTEMPTS) continue;
          throw error;
        }
        const before = log.events.length;
        await this.refresh(context.tenant);
        const mine = log.events.slice(before, before + events.length);
        // Not ours: another process appended under this command id after the same revision, and the
        // server took our events (their ids derived from it) for a retry of that append and wrote
        // nothing. A duplicate, answered as one.
        const claimed = context.commandId === null ? undefined : log.commands.get(context.commandId);
        if (claimed !== undefined && mine[0]?.eventId !== writes[0]!.events[0]!.eventId) {
          return { position: claimed.position, positions: [], duplicate: true, commandFingerprint: claimed.fingerprint, streamVersions: {}, followUp: null };
        }
        const positions = mine.map((e) => e.globalPosition);
        const streamVersions: Record<string, number> = {};
        for (const a of writes) streamVersions[a.streamId] = (log.streams.get(a.streamId)?.length ?? 0) - 1;
        return { position: positions[positions.length - 1]!, positions, duplicate: false, streamVersions, followUp: null };
      }
    });
  }

  /** Brings this process's copy of a tenant's stream up to date: the events after the last revision read. */
  private async refresh(tenant: string): Promise<TenantLog> {
    let log = this.tenants.get(tenant);
    if (!log) {
      log = { revision: -1, events: [], streams: new Map(), commands: new Map() };
      this.tenants.set(tenant, log);
    }
    try {
      const read = this.client.readStream(this.streamOf(tenant), { direction: FORWARDS, fromRevision: log.revision < 0 ? START : BigInt(log.revision + 1) });
      for await (const resolved of drained(read)) {
        const e = resolved.event;
        if (!e) continue;
        const recorded = this.recorded(e as never);
        log.events.push(recorded);
        const stream = log.streams.get(recorded.streamId) ?? [];
        stream.push(recorded);
        log.streams.set(recorded.streamId, stream);
        if (recorded.commandId !== null) {
          // Every event of a command carries its fingerprint; the first claim's is the one kept.
          const fingerprint = log.commands.get(recorded.commandId)?.fingerprint ?? (e.metadata as Partial<Meta> | undefined)?.f ?? null;
          log.commands.set(recorded.commandId, { position: recorded.globalPosition, fingerprint });
        }
        log.revision = Number(e.revision);
      }
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    return log;
  }

  /** One of our events as the port gives it, from what the server returned. */
  private recorded(e: { id: string; type: string; data: unknown; metadata: Meta; position?: { commit: bigint; prepare: bigint } }): RecordedEvent {
    const m = e.metadata;
    if (!e.position) throw new Error(`KurrentDB returned event ${e.id} without its $all position`);
    return {
      globalPosition: Number(e.position.prepare),
      logPosition: { commit: String(e.position.commit), prepare: Number(e.position.prepare) },
      tenant: m.t,
      streamId: m.s,
      streamVersion: m.v,
      eventId: m.e,
      type: e.type,
      data: e.data,
      commandId: m.c,
      causationId: m.k,
      correlationId: m.r,
      batch: m.b,
      recordedAt: new Date(m.at),
      actor: m.a,
    };
  }

  private streamNow(log: TenantLog, streamId: string): ReadStreamResult {
    const stream = log.streams.get(streamId) ?? [];
    return { version: stream.length - 1, events: stream.map(copy) };
  }

  async readStream(tenant: string, streamId: string): Promise<ReadStreamResult> {
    return this.serialised(tenant, async () => this.streamNow(await this.refresh(tenant), streamId));
  }

  /** Our events from `$all` after `after`, in log order; another application's streams and the server's own are passed over. */
  async readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    if (limit <= 0) return out;
    // `$all` is read from a position inclusive: the event at `after` itself is passed over.
    const start = allPosition(after);
    let from: typeof START | { commit: bigint; prepare: bigint } = start ?? START;
    let skip = start;
    for (;;) {
      let read = 0;
      for await (const resolved of drained(this.client.readAll({ direction: FORWARDS, fromPosition: from, maxCount: PAGE }))) {
        const e = (resolved as AllStreamResolvedEvent).event;
        if (!e) continue;
        read++;
        from = e.position;
        if (skip && e.position.commit === skip.commit && e.position.prepare === skip.prepare) continue;
        if (!e.streamId.startsWith(this.prefix)) continue;
        out.push(this.recorded(e as never));
        if (out.length >= limit) return out;
      }
      if (read < PAGE || from === START) return out;
      skip = from;
    }
  }

  /**
   * The server's own catch-up subscription to `$all` (it reads from the position, then goes live),
   * filtered to our prefix on the server. Events are delivered in pages: a page goes when it is
   * full or when nothing more has arrived; while a delivery runs, what the server sends waits in
   * the subscription's buffer (the client stops reading when it is full), so nothing is lost.
   */
  subscribe(after: LogPosition, deliver: (events: RecordedEvent[]) => Promise<void>, options: SubscribeOptions = {}): LogSubscription {
    const pageSize = options.pageSize ?? DEFAULT_SUBSCRIPTION_PAGE;
    // A subscription starts strictly after its position (a read includes it: see readAll).
    const subscription = this.client.subscribeToAll({ fromPosition: allPosition(after) ?? START, filter: streamNameFilter({ prefixes: [this.prefix] }) });
    const stop = () => subscription.unsubscribe().catch(() => undefined);
    return runSubscription(async (closed) => {
      let page: RecordedEvent[] = [];
      try {
        for await (const resolved of subscription) {
          if (closed()) return;
          const e = (resolved as AllStreamResolvedEvent).event;
          if (e?.streamId.startsWith(this.prefix)) page.push(this.recorded(e as never));
          if (page.length > 0 && (page.length >= pageSize || subscription.readableLength === 0)) {
            await deliver(page);
            page = [];
          }
        }
        if (!closed()) throw new Error('the KurrentDB subscription ended without being closed');
      } catch (error) {
        if (!closed()) throw error;
      } finally {
        await stop();
      }
    }, stop);
  }

  async readType(tenant: string, type: string, after: number, limit: number): Promise<RecordedEvent[]> {
    const log = await this.serialised(tenant, () => this.refresh(tenant));
    return log.events
      .filter((e) => e.globalPosition > after && e.type === type)
      .slice(0, limit)
      .map(copy);
  }

  async readBatch(tenant: string, batch: string): Promise<RecordedEvent[]> {
    const log = await this.serialised(tenant, () => this.refresh(tenant));
    return log.events.filter((e) => e.batch === batch).map(copy);
  }

  /** The position of the last of our events in `$all` (0 for none). */
  async commandClaim(tenant: string, commandId: string): Promise<{ position: number; fingerprint: string | null } | null> {
    // In the tenant's turn, as every read of its copy: two refreshes at once would each add the same events to it.
    const log = await this.serialised(tenant, () => this.refresh(tenant));
    return log.commands.get(commandId) ?? null;
  }

  async head(): Promise<number> {
    for await (const resolved of drained(this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1000 }))) {
      const e = (resolved as AllStreamResolvedEvent).event;
      if (e && e.streamId.startsWith(this.prefix) && !e.type.startsWith('$')) return Number(e.position.prepare);
    }
    return 0;
  }

  behind(after: LogPosition, upTo: number | null): Promise<Backlog> {
    return backlogByReading(this, after, upTo);
  }

  /** Nothing to seal: the chain is computed at `verify` (see the module's note). */
  async seal(): Promise<number> {
    return 0;
  }

  /**
   * Walks every tenant's stream in log order: each logical stream's versions must run 0, 1, 2…
   * with none missing (an event deleted or scavenged away shows as a gap), and the chain over
   * every event's content gives the head hash.
   */
  async verify(options: { pageSize?: number } = {}): Promise<LogVerification> {
    const versions = new Map<string, number>();
    let previous = Buffer.alloc(0);
    let events = 0;
    let after: LogPosition = { commit: '0', prepare: 0 };
    let headPosition = 0;
    for (;;) {
      const page = await this.readAll(after, options.pageSize ?? 1000);
      for (const e of page) {
        const key = `${e.tenant}\u0000${e.streamId}`;
        const expected = (versions.get(key) ?? -1) + 1;
        if (e.streamVersion !== expected) {
          return {
            ok: false,
            events,
            position: e.globalPosition,
            problem: 'missing',
            message: `stream ${e.streamId} of ${e.tenant} jumps from version ${expected - 1} to ${e.streamVersion} at ${e.globalPosition}: events are missing`,
          };
        }
        versions.set(key, expected);
        const content = JSON.stringify([
          e.globalPosition,
          e.tenant,
          e.streamId,
          e.streamVersion,
          e.eventId,
          e.type,
          e.data,
          e.commandId,
          e.causationId,
          e.correlationId,
          e.batch,
          e.recordedAt.getTime(),
          e.actor,
        ]);
        previous = createHash('sha256').update(previous).update(createHash('sha256').update(content).digest()).digest();
        events++;
        headPosition = e.globalPosition;
      }
      if (page.length === 0) break;
      after = page[page.length - 1]!.logPosition;
    }
    return { ok: true, events, headPosition, head: events ? previous.toString('hex') : null };
  }

  async redact(_context: AppendContext, _redactions: LogRedaction[], _record: (hashes: RedactedHash[]) => StreamAppend[]): Promise<AppendResult> {
    throw new StoreCapabilityError('rewrite an event in place (erasure)', 'the KurrentDB event store');
  }

  /** Closes the client's connection. */
  async close(): Promise<void> {
    await this.client.dispose();
  }
}
