/**
 * The event store in process memory: the same contract as the PostgreSQL adapter (the contract
 * suite, libs/testing/src/event-store.contract.ts, runs on both), for unit tests of what sits above
 * the port and for trying the ledger without a database. Nothing survives the process.
 *
 * Appends are applied whole or not at all (every check runs before anything is written), one at a
 * time, so positions are in commit order by construction. Events are copied in and out: what a
 * caller holds can never change the log. It cannot run an adapter's follow-up (an inline
 * projection in SQL), so `followUp` is always null and callers fall back to their runner.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ExpectedVersionConflict } from './errors';
import {
  type AppendContext,
  type AppendFollowUp,
  type AppendResult,
  ERASURE_RECORDED,
  type EventStore,
  type LogPosition,
  type LogRedaction,
  type LogVerification,
  type ReadStreamResult,
  type RecordedEvent,
  type RedactedHash,
  type StreamAppend,
  type Backlog,
  type LogSubscription,
  type SubscribeOptions,
} from './event-store.port';
import { backlogByReading } from './backlog';
import { AppendSignal, subscriptionByReading } from './subscription';

interface Sealed {
  salt: Buffer | null;
  contentHash: Buffer;
  hash: Buffer;
}

const key = (tenant: string, id: string): string => `${tenant}\u0000${id}`;
const copy = (e: RecordedEvent): RecordedEvent => ({ ...structuredClone(e), recordedAt: new Date(e.recordedAt.getTime()), logPosition: { ...e.logPosition } });

/** What the chain hashes of an event: every field, in a fixed order (like fl_event_content). */
function content(e: RecordedEvent): Buffer {
  return Buffer.from(
    JSON.stringify([e.globalPosition, e.tenant, e.streamId, e.streamVersion, e.eventId, e.type, e.data, e.commandId, e.causationId, e.correlationId, e.batch, e.recordedAt.getTime(), e.actor]),
    'utf8',
  );
}
const sha256 = (...parts: Buffer[]): Buffer => parts.reduce((h, p) => h.update(p), createHash('sha256')).digest();

export class InMemoryEventStore implements EventStore {
  readonly capabilities = { inlineProjection: false, redact: true, logInDatabase: false };
  private readonly log: RecordedEvent[] = [];
  private readonly streams = new Map<string, RecordedEvent[]>();
  /** The last position each (tenant, command id) appended, and the fingerprint it was claimed with. */
  private readonly commands = new Map<string, { position: number; fingerprint: string | null }>();
  private readonly chain: Sealed[] = [];
  /** Wakes this store's subscriptions after each append (or erasure). */
  private readonly appends = new AppendSignal();
  /** One append (or erasure) at a time, like the PostgreSQL adapter's ordering lock. */
  private queue: Promise<unknown> = Promise.resolve();

  private serialised<T>(work: () => T): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  async append(context: AppendContext, appends: StreamAppend[], _followUp?: AppendFollowUp): Promise<AppendResult> {
    const result = await this.serialised(() => this.appendNow(context, appends));
    this.appends.notify();
    return result;
  }

  private appendNow(context: AppendContext, appends: StreamAppend[]): AppendResult {
    const writes = appends.filter((a) => a.events.length > 0);
    if (writes.length === 0) return { position: 0, positions: [], duplicate: false, streamVersions: {}, followUp: null };
    const commandKey = context.commandId === null ? null : key(context.tenant, context.commandId);
    const done = commandKey === null ? undefined : this.commands.get(commandKey);
    if (done !== undefined) return { position: done.position, positions: [], duplicate: true, commandFingerprint: done.fingerprint, streamVersions: {}, followUp: null };
    for (const a of writes) {
      const stream = this.streams.get(key(context.tenant, a.streamId));
      const actual = stream ? stream.length - 1 : -1;
      const expected = a.expectedVersion === 'no-stream' ? -1 : a.expectedVersion;
      if (expected !== 'any' && expected !== actual) {
        throw new ExpectedVersionConflict(a.streamId, expected === -1 ? 'no stream' : String(expected), actual, this.readNow(context.tenant, a.streamId));
      }
    }
    const positions: number[] = [];
    const streamVersions: Record<string, number> = {};
    for (const a of writes) {
      const k = key(context.tenant, a.streamId);
      const stream = this.streams.get(k) ?? [];
      this.streams.set(k, stream);
      for (const e of a.events) {
        const position = this.log.length + 1;
        const recorded: RecordedEvent = {
          globalPosition: position,
          logPosition: { commit: String(position), prepare: position },
          tenant: context.tenant,
          streamId: a.streamId,
          streamVersion: stream.length,
          eventId: e.eventId,
          type: e.type,
          data: structuredClone(e.data),
          commandId: context.commandId,
          causationId: context.causationId,
          correlationId: context.correlationId,
          batch: context.batch,
          recordedAt: new Date(context.recordedAt.getTime()),
          actor: context.actor ?? null,
        };
        this.log.push(recorded);
        stream.push(recorded);
        positions.push(position);
      }
      streamVersions[a.streamId] = stream.length - 1;
    }
    const position = positions[positions.length - 1]!;
    if (commandKey !== null) this.commands.set(commandKey, { position, fingerprint: context.commandFingerprint ?? null });
    return { position, positions, duplicate: false, streamVersions, followUp: null };
  }

  private readNow(tenant: string, streamId: string): ReadStreamResult {
    const stream = this.streams.get(key(tenant, streamId)) ?? [];
    return { version: stream.length - 1, events: stream.map(copy) };
  }

  async readStream(tenant: string, streamId: string): Promise<ReadStreamResult> {
    return this.readNow(tenant, streamId);
  }

  async readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]> {
    return this.log.slice(after.prepare, after.prepare + limit).map(copy);
  }

  /** Every append here wakes it: nothing else writes this log. */
  subscribe(after: LogPosition, deliver: (events: RecordedEvent[]) => Promise<void>, options: SubscribeOptions = {}): LogSubscription {
    return subscriptionByReading((from, limit) => this.readAll(from, limit), this.appends, after, deliver, { ...options, pollMs: 60_000 });
  }

  async readType(tenant: string, type: string, after: number, limit: number): Promise<RecordedEvent[]> {
    return this.log
      .slice(after)
      .filter((e) => e.tenant === tenant && e.type === type)
      .slice(0, limit)
      .map(copy);
  }

  async readBatch(tenant: string, batch: string): Promise<RecordedEvent[]> {
    return this.log.filter((e) => e.tenant === tenant && e.batch === batch).map(copy);
  }

  async commandClaim(tenant: string, commandId: string): Promise<{ position: number; fingerprint: string | null } | null> {
    return this.commands.get(key(tenant, commandId)) ?? null;
  }

  async head(): Promise<number> {
    return this.log.length;
  }

  behind(after: LogPosition, upTo: number | null): Promise<Backlog> {
    return backlogByReading(this, after, upTo);
  }

  async seal(): Promise<number> {
    return this.sealNow();
  }

  private sealNow(): number {
    const from = this.chain.length;
    for (const e of this.log.slice(from)) {
      const salt = randomBytes(16);
      const contentHash = sha256(salt, content(e));
      this.chain.push({ salt, contentHash, hash: sha256(this.chain.at(-1)?.hash ?? Buffer.alloc(0), contentHash) });
    }
    return this.log.length - from;
  }

  async verify(): Promise<LogVerification> {
    this.sealNow();
    const redacted = new Map<number, string>();
    for (const e of this.log) if (e.type === ERASURE_RECORDED) for (const [p, h] of (e.data as { redacted: RedactedHash[] }).redacted) redacted.set(p, h);
    let previous: Buffer = Buffer.alloc(0);
    for (const [i, e] of this.log.entries()) {
      const sealed = this.chain[i]!;
      const position = e.globalPosition;
      const now = sealed.salt ? sha256(sealed.salt, content(e)) : sha256(content(e));
      const expected = sealed.salt ? sealed.contentHash.toString('hex') : redacted.get(position);
      if (now.toString('hex') !== expected) return { ok: false, events: i, position, problem: 'content', message: `event ${position} does not say what was hashed: it was altered` };
      if (!sha256(previous, sealed.contentHash).equals(sealed.hash)) return { ok: false, events: i, position, problem: 'link', message: `the chain breaks at event ${position}` };
      previous = sealed.hash;
    }
    return { ok: true, events: this.log.length, headPosition: this.log.length, head: this.log.length ? previous.toString('hex') : null };
  }

  async redact(context: AppendContext, redactions: LogRedaction[], record: (hashes: RedactedHash[]) => StreamAppend[]): Promise<AppendResult> {
    const result = await this.redactNow(context, redactions, record);
    this.appends.notify();
    return result;
  }

  private redactNow(context: AppendContext, redactions: LogRedaction[], record: (hashes: RedactedHash[]) => StreamAppend[]): Promise<AppendResult> {
    return this.serialised(() => {
      this.sealNow();
      for (const r of redactions) {
        if (this.log[r.position - 1]?.tenant !== context.tenant) throw new Error("an erasure named an event that is not in its tenant's log");
      }
      const before = redactions.map((r) => ({ event: this.log[r.position - 1]!, data: this.log[r.position - 1]!.data, salt: this.chain[r.position - 1]!.salt }));
      const hashes: RedactedHash[] = [];
      for (const r of [...redactions].sort((a, b) => a.position - b.position)) {
        const event = this.log[r.position - 1]!;
        event.data = structuredClone(r.data);
        this.chain[r.position - 1]!.salt = null;
        hashes.push([r.position, sha256(content(event)).toString('hex')]);
      }
      try {
        return this.appendNow(context, record(hashes));
      } catch (error) {
        // All or nothing: the rewrite goes with the refused append.
        for (const b of before) {
          b.event.data = b.data;
          this.chain[b.event.globalPosition - 1]!.salt = b.salt;
        }
        throw error;
      }
    });
  }
}
