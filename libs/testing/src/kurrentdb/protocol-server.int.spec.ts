/**
 * Drives the in-process KurrentDB protocol server (./protocol-server.ts) through the real `@eventstore/db-client`
 * client only. When KURRENTDB_URL is set (e.g. `esdb://localhost:2113?tls=false`) the same tests also run against
 * that real server, which is how the double's fidelity is checked; assertions that depend on owning the whole
 * log (or on behaviour the double documents but a real node need not reproduce on cue) run against the double only.
 */
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  MaxAppendSizeExceededError,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  binaryEvent,
  eventTypeFilter,
  jsonEvent,
  streamNameFilter,
  type AppendExpectedRevision,
  type CatchupSubscription,
  type EventData,
  type Position,
  type ReadableSubscription,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { Empty } from '@eventstore/db-client/generated/shared_pb';
import { StreamsClient } from '@eventstore/db-client/generated/streams_grpc_pb';
import { ReadReq, ReadResp } from '@eventstore/db-client/generated/streams_pb';
import { startKurrentProtocolServer, type KurrentProtocolServer } from './protocol-server';

interface Target {
  name: string;
  /** The in-process double, whose whole log belongs to this suite. */
  local: boolean;
  url?: string;
}

const targets: Target[] = [{ name: 'in-process protocol server', local: true }];
if (process.env.KURRENTDB_URL) targets.push({ name: `real server at ${process.env.KURRENTDB_URL}`, local: false, url: process.env.KURRENTDB_URL });

/** Per-call credentials make the client use the client-streaming `Streams.Append` instead of `Streams.BatchAppend`. */
const VIA_APPEND_RPC = { credentials: { username: 'admin', password: 'changeit' } };

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function toArray<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(5);
  }
}

function numbered(type: string, from: number, count: number): EventData[] {
  return Array.from({ length: count }, (_, i) => jsonEvent({ type, data: { n: from + i } }));
}

const range = (from: number, count: number): number[] => Array.from({ length: count }, (_, i) => from + i);
const dataN = (resolved: ResolvedEvent): number => (resolved.event!.data as { n: number }).n;
const commitOf = (resolved: ResolvedEvent): bigint => resolved.event!.position!.commit;

function expectStrictlyIncreasing(values: bigint[]): void {
  for (let i = 1; i < values.length; i++) expect(values[i] > values[i - 1]).toBe(true);
}

interface Collected {
  events: ResolvedEvent[];
  caughtUp: number;
  confirmed: boolean;
  checkpoints: Position[];
  error?: unknown;
  /** Settles when the subscription's iteration ends. */
  done: Promise<void>;
}

/** Consumes a subscription in the background, optionally pausing after each accepted event (a slow consumer). */
function collect(
  subscription: ReadableSubscription<ResolvedEvent> & CatchupSubscription,
  options: { accept?: (resolved: ResolvedEvent) => boolean; pauseMs?: (received: number) => number; checkpoints?: Position[] } = {},
): Collected {
  const state: Collected = { events: [], caughtUp: 0, confirmed: false, checkpoints: options.checkpoints ?? [], done: Promise.resolve() };
  subscription.on('caughtUp', () => (state.caughtUp += 1));
  subscription.on('confirmation', () => (state.confirmed = true));
  state.done = (async () => {
    try {
      for await (const resolved of subscription) {
        if (options.accept && !options.accept(resolved)) continue;
        state.events.push(resolved);
        const pause = options.pauseMs?.(state.events.length) ?? 0;
        if (pause > 0) await delay(pause);
      }
    } catch (error) {
      state.error = error;
    }
  })();
  return state;
}

/** A raw `Streams.Read` with the package's own generated stubs: `readAll()` in client 6.2.1 cannot send a filter. */
function rawRead(url: string, options: ReadReq.Options): Promise<ReadResp[]> {
  const address = /^esdb(?:\+discover)?:\/\/(?:[^@/]+@)?([^/?,]+)/.exec(url)![1];
  const raw = new StreamsClient(address, grpc.credentials.createInsecure());
  return new Promise<ReadResp[]>((resolve, reject) => {
    const responses: ReadResp[] = [];
    const call = raw.read(new ReadReq().setOptions(options));
    call.on('data', (response: ReadResp) => responses.push(response));
    call.on('error', (error) => (raw.close(), reject(error)));
    call.on('end', () => (raw.close(), resolve(responses)));
  });
}

function structuredToUuid(uuid: NonNullable<ReturnType<ReadResp.ReadEvent.RecordedEvent['getId']>>): string {
  const structured = uuid.getStructured()!;
  const hex =
    BigInt.asUintN(64, BigInt(structured.getMostSignificantBits())).toString(16).padStart(16, '0') + BigInt.asUintN(64, BigInt(structured.getLeastSignificantBits())).toString(16).padStart(16, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

describe.each(targets)('KurrentDB gRPC protocol: $name', (target) => {
  let server: KurrentProtocolServer | undefined;
  let url: string;
  let client: EventStoreDBClient;
  const localIt = target.local ? it : it.skip;

  beforeAll(async () => {
    if (target.local) server = await startKurrentProtocolServer();
    url = server?.url ?? target.url!;
    client = EventStoreDBClient.connectionString(url);
  });

  afterAll(async () => {
    await client.dispose();
    await server?.close();
  });

  it('appends to a stream and reads it back: types, data, metadata, revisions, ids, created, increasing positions', async () => {
    const stream = `order-${randomUUID()}`;
    const placed = jsonEvent({ type: 'OrderPlaced', data: { orderId: 7, lines: ['a', 'b'] }, metadata: { causationId: 'c-1' } });
    const paid = jsonEvent({ type: 'OrderPaid', data: { amount: 12.5 } });
    const scan = binaryEvent({ type: 'ReceiptScanned', data: Uint8Array.from([0, 1, 2, 255]), metadata: Uint8Array.from([9, 8]) });
    const before = Date.now();

    const appended = await client.appendToStream(stream, [placed, paid, scan], { expectedRevision: NO_STREAM });
    expect(appended.success).toBe(true);
    expect(appended.nextExpectedRevision).toBe(2n);
    expect(appended.position).toBeDefined();

    const read = await toArray(client.readStream(stream));
    expect(read.map((r) => r.event!.revision)).toEqual([0n, 1n, 2n]);
    expect(read.map((r) => r.event!.id)).toEqual([placed.id, paid.id, scan.id]);
    expect(read.map((r) => r.event!.type)).toEqual(['OrderPlaced', 'OrderPaid', 'ReceiptScanned']);
    expect(read.map((r) => r.event!.streamId)).toEqual([stream, stream, stream]);
    expect(read.map((r) => r.event!.isJson)).toEqual([true, true, false]);
    expect(read[0].event!.data).toEqual({ orderId: 7, lines: ['a', 'b'] });
    expect(read[0].event!.metadata).toEqual({ causationId: 'c-1' });
    expect(read[1].event!.data).toEqual({ amount: 12.5 });
    expect(read[1].event!.metadata).toBeUndefined();
    expect(Array.from(read[2].event!.data as Uint8Array)).toEqual([0, 1, 2, 255]);
    expect(Array.from(read[2].event!.metadata as Uint8Array)).toEqual([9, 8]);
    for (const r of read) {
      // `created` arrives as .NET ticks since the Unix epoch; the client turns it into a Date.
      expect(r.event!.created.getTime()).toBeGreaterThanOrEqual(before - 60_000);
      expect(r.event!.created.getTime()).toBeLessThanOrEqual(Date.now() + 60_000);
      expect(r.event!.position!.commit).toBe(r.event!.position!.prepare);
      expect(r.commitPosition).toBe(r.event!.position!.commit);
    }
    expectStrictlyIncreasing(read.map(commitOf));
    expect(commitOf(read[2]) <= appended.position!.commit).toBe(true);
    if (target.local) expect(read[2].event!.position).toEqual(appended.position);

    const more = await client.appendToStream(stream, numbered('OrderShipped', 0, 2), { expectedRevision: 2n });
    expect(more.nextExpectedRevision).toBe(4n);
    expect(more.position!.commit > appended.position!.commit).toBe(true);
    const tail = await toArray(client.readStream(stream, { fromRevision: 3n, maxCount: 1 }));
    expect(tail.map((r) => [r.event!.revision, dataN(r)])).toEqual([[3n, 0]]);
    expect(commitOf(tail[0]) > commitOf(read[2])).toBe(true);
  });

  it('appends through the client-streaming Append RPC as well as BatchAppend', async () => {
    const stream = `ledger-${randomUUID()}`;
    const first = await client.appendToStream(stream, numbered('Posted', 0, 2), { expectedRevision: NO_STREAM, ...VIA_APPEND_RPC });
    expect(first.nextExpectedRevision).toBe(1n);
    const second = await client.appendToStream(stream, numbered('Posted', 2, 1), { expectedRevision: 1n });
    const third = await client.appendToStream(stream, numbered('Posted', 3, 1), { expectedRevision: STREAM_EXISTS, ...VIA_APPEND_RPC });
    expect([second.nextExpectedRevision, third.nextExpectedRevision]).toEqual([2n, 3n]);
    expectStrictlyIncreasing([first.position!.commit, second.position!.commit, third.position!.commit]);
    expect((await toArray(client.readStream(stream))).map(dataN)).toEqual([0, 1, 2, 3]);
  });

  describe.each([
    ['BatchAppend', {}],
    ['Append', VIA_APPEND_RPC],
  ])('wrong expected revision via %s', (_rpc, via) => {
    it('throws WrongExpectedVersionError with the current and expected revision, and writes nothing', async () => {
      const stream = `account-${randomUUID()}`;
      const missing = `account-${randomUUID()}`;
      await client.appendToStream(stream, numbered('Opened', 0, 2), { expectedRevision: NO_STREAM, ...via });
      const attempt = (name: string, expectedRevision: AppendExpectedRevision) => client.appendToStream(name, numbered('Late', 100, 1), { expectedRevision, ...via });

      await expect(attempt(stream, 5n)).rejects.toThrow(WrongExpectedVersionError);
      await expect(attempt(stream, 5n)).rejects.toMatchObject({ streamName: stream, expectedVersion: 5n, actualVersion: 1n });
      await expect(attempt(stream, 0n)).rejects.toMatchObject({ streamName: stream, expectedVersion: 0n, actualVersion: 1n });
      await expect(attempt(stream, NO_STREAM)).rejects.toMatchObject({ streamName: stream, expectedVersion: 'no_stream', actualVersion: 1n });
      await expect(attempt(missing, STREAM_EXISTS)).rejects.toMatchObject({ streamName: missing, expectedVersion: 'stream_exists', actualVersion: 'no_stream' });
      await expect(attempt(missing, 0n)).rejects.toMatchObject({ streamName: missing, expectedVersion: 0n, actualVersion: 'no_stream' });

      expect((await toArray(client.readStream(stream))).map(dataN)).toEqual([0, 1]);
      await expect(toArray(client.readStream(missing))).rejects.toThrow(StreamNotFoundError);
    });
  });

  it('deduplicates a retried append by event id and answers with the original revision and position', async () => {
    const stream = `payment-${randomUUID()}`;
    const events = numbered('Charged', 0, 3);
    const original = await client.appendToStream(stream, events, { expectedRevision: NO_STREAM });
    expect(original.nextExpectedRevision).toBe(2n);

    for (const expectedRevision of [NO_STREAM, ANY, STREAM_EXISTS] as const) {
      expect(await client.appendToStream(stream, events, { expectedRevision })).toEqual(original);
    }
    expect(await client.appendToStream(stream, events, { expectedRevision: NO_STREAM, ...VIA_APPEND_RPC })).toEqual(original);
    // An exact expected revision before the end is idempotent when the events after it carry the same ids.
    expect(await client.appendToStream(stream, events.slice(1), { expectedRevision: 0n })).toEqual(original);

    // A retry that is only partly written already is refused, as the server does ("corrupted idempotency").
    const fresh = () => jsonEvent({ type: 'Charged', data: { n: 99 } });
    await expect(client.appendToStream(stream, [events[0], fresh()], { expectedRevision: NO_STREAM })).rejects.toThrow(WrongExpectedVersionError);
    await expect(client.appendToStream(stream, [events[0], fresh()], { expectedRevision: ANY })).rejects.toThrow(WrongExpectedVersionError);
    await expect(client.appendToStream(stream, [events[2], fresh()], { expectedRevision: 1n })).rejects.toThrow(WrongExpectedVersionError);

    const read = await toArray(client.readStream(stream));
    expect(read.map((r) => r.event!.id)).toEqual(events.map((e) => e.id));
    expect(read[2].event!.position!.commit <= original.position!.commit).toBe(true);
    if (target.local) {
      const everything = await toArray(client.readAll());
      const ids = new Set(events.map((e) => e.id));
      expect(everything.filter((r) => ids.has(r.event!.id))).toHaveLength(3);
    }
  });

  it('refuses an append over the maximum append size on both append RPCs', async () => {
    const stream = `blob-${randomUUID()}`;
    const big = () => jsonEvent({ type: 'Blob', data: { blob: 'x'.repeat(1_100_000) } });
    await expect(client.appendToStream(stream, big())).rejects.toThrow(MaxAppendSizeExceededError);
    await expect(client.appendToStream(stream, big(), VIA_APPEND_RPC)).rejects.toThrow(MaxAppendSizeExceededError);
    await expect(toArray(client.readStream(stream))).rejects.toThrow(StreamNotFoundError);
  });

  it('reads $all forwards and backwards, from start, end and a position, with maxCount', async () => {
    const token = randomUUID().slice(0, 8);
    const a = `acct-${token}-a`;
    const b = `acct-${token}-b`;
    const plan: Array<[string, number]> = [
      [a, 0],
      [b, 1],
      [a, 2],
      [b, 3],
      [a, 4],
    ];
    for (const [stream, n] of plan) await client.appendToStream(stream, numbered(stream === a ? 'Credited' : 'Debited', n, 1));
    const ours = (await toArray(client.readStream(a))).concat(await toArray(client.readStream(b))).sort((x, y) => dataN(x) - dataN(y));
    const ids = ours.map((r) => r.event!.id);
    const first = ours[0].event!.position!;

    const forwards = await toArray(client.readAll({ fromPosition: first, maxCount: 5 }));
    expect(forwards).toHaveLength(5);
    expect(forwards[0].event!.id).toBe(ids[0]); // forwards reads include the event at the position
    expectStrictlyIncreasing(forwards.map(commitOf));
    if (target.local) expect(forwards.map((r) => r.event!.id)).toEqual(ids);

    const fromThird = await toArray(client.readAll({ fromPosition: ours[2].event!.position!, maxCount: 2, direction: FORWARDS }));
    expect(fromThird.map((r) => r.event!.id)[0]).toBe(ids[2]);
    expect(fromThird).toHaveLength(2);

    const backwardsFromEnd = await toArray(client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 3 }));
    expect(backwardsFromEnd).toHaveLength(3);
    expectStrictlyIncreasing(backwardsFromEnd.map(commitOf).reverse());
    if (target.local) expect(backwardsFromEnd.map((r) => r.event!.id)).toEqual([ids[4], ids[3], ids[2]]);

    // Backwards reads return the events before the position.
    const before = await toArray(client.readAll({ fromPosition: ours[4].event!.position!, direction: BACKWARDS, maxCount: 2, resolveLinkTos: true }));
    expect(before.every((r) => commitOf(r) < commitOf(ours[4]))).toBe(true);
    expect(before).toHaveLength(2);
    if (target.local) expect(before.map((r) => r.event!.id)).toEqual([ids[3], ids[2]]);

    const head = await toArray(client.readAll({ fromPosition: START, maxCount: 2 }));
    expect(head).toHaveLength(2);
    expectStrictlyIncreasing(head.map(commitOf));
    expect(await toArray(client.readAll({ fromPosition: START, direction: BACKWARDS, maxCount: 5 }))).toEqual([]);
    expect(await toArray(client.readAll({ fromPosition: END, direction: FORWARDS, maxCount: 5 }))).toEqual([]);
  });

  it('honours a server-side stream-name prefix filter and event-type regex filter on a $all read', async () => {
    if (!/tls=false/i.test(url)) return; // the raw stub below connects without TLS
    const token = randomUUID().slice(0, 8);
    const kept = `invoice-${token}-kept`;
    await client.appendToStream(kept, numbered(`Issued${token}`, 0, 3));
    await client.appendToStream(`invoice-${token}x-other`, numbered(`Voided${token}`, 0, 2));
    await client.appendToStream(kept, numbered(`Voided${token}`, 3, 1));

    const base = (): ReadReq.Options =>
      new ReadReq.Options()
        .setAll(new ReadReq.Options.AllOptions().setStart(new Empty()))
        .setResolveLinks(false)
        .setCount('100')
        .setUuidOption(new ReadReq.Options.UUIDOption().setStructured(new Empty()));
    const filter = (expression: ReadReq.Options.FilterOptions.Expression, onStream: boolean) => {
      const options = new ReadReq.Options.FilterOptions().setCount(new Empty()).setCheckpointintervalmultiplier(1);
      return onStream ? options.setStreamIdentifier(expression) : options.setEventType(expression);
    };
    const events = (responses: ReadResp[]) => responses.filter((r) => r.hasEvent()).map((r) => r.getEvent()!.getEvent()!);
    const name = (recorded: ReadResp.ReadEvent.RecordedEvent) => Buffer.from(recorded.getStreamIdentifier()!.getStreamName_asU8()).toString('utf8');

    const prefixFilter = filter(new ReadReq.Options.FilterOptions.Expression().setPrefixList([kept]), true);
    const byPrefix = events(await rawRead(url, base().setReadDirection(ReadReq.Options.ReadDirection.FORWARDS).setFilter(prefixFilter)));
    expect(byPrefix.map(name)).toEqual([kept, kept, kept, kept]);
    expect(byPrefix.map((e) => e.getStreamRevision())).toEqual(['0', '1', '2', '3']);
    const keptIds = (await toArray(client.readStream(kept))).map((r) => r.event!.id);
    expect(byPrefix.map((e) => structuredToUuid(e.getId()!))).toEqual(keptIds); // the structured UUID form asked for

    const regexFilter = filter(new ReadReq.Options.FilterOptions.Expression().setRegex(`^Voided${token}$`), false);
    const fromEnd = new ReadReq.Options.AllOptions().setEnd(new Empty());
    const byRegex = events(await rawRead(url, base().setReadDirection(ReadReq.Options.ReadDirection.BACKWARDS).setAll(fromEnd).setCount('2').setFilter(regexFilter)));
    expect(byRegex.map((e) => [name(e), e.getStreamRevision()])).toEqual([
      [kept, '3'],
      [`invoice-${token}x-other`, '1'],
    ]);
  });

  it('reads a stream backwards and forwards from a revision; a missing stream throws StreamNotFoundError', async () => {
    const stream = `cart-${randomUUID()}`;
    await client.appendToStream(stream, numbered('ItemAdded', 0, 4));
    const revisions = async (options: Parameters<EventStoreDBClient['readStream']>[1]) => (await toArray(client.readStream(stream, options))).map((r) => r.event!.revision);

    expect(await revisions({ direction: BACKWARDS, fromRevision: END })).toEqual([3n, 2n, 1n, 0n]);
    expect(await revisions({ direction: BACKWARDS, fromRevision: END, maxCount: 2 })).toEqual([3n, 2n]);
    expect(await revisions({ direction: BACKWARDS, fromRevision: 1n })).toEqual([1n, 0n]);
    expect(await revisions({ direction: FORWARDS, fromRevision: 2n })).toEqual([2n, 3n]);
    expect(await revisions({ fromRevision: 10n })).toEqual([]);

    const missing = `cart-${randomUUID()}`;
    await expect(toArray(client.readStream(missing))).rejects.toThrow(StreamNotFoundError);
    await expect(toArray(client.readStream(missing, { direction: BACKWARDS, fromRevision: END }))).rejects.toMatchObject({ streamName: missing });
  });

  it('a $all catch-up subscription from START gets the existing events, then live ones, without gap or duplicate', async () => {
    const stream = `meter-${randomUUID()}`;
    await client.appendToStream(stream, numbered('Read', 0, 5));

    const subscription = client.subscribeToAll({ fromPosition: START });
    const seen = collect(subscription);
    // Appended while the subscription is catching up...
    await client.appendToStream(stream, numbered('Read', 5, 3));
    await client.appendToStream(stream, numbered('Read', 8, 2));
    await until(() => seen.caughtUp >= 1, 'caughtUp');
    expect(seen.confirmed).toBe(true);
    // ...and once it is live.
    for (let n = 10; n < 15; n++) await client.appendToStream(stream, numbered('Read', n, 1));

    const ours = () => seen.events.filter((r) => r.event!.streamId === stream);
    await until(() => ours().length >= 15, 'all 15 events');
    await delay(50);
    expect(ours().map(dataN)).toEqual(range(0, 15));
    expect(ours().map((r) => r.event!.revision)).toEqual(range(0, 15).map(BigInt));

    // Everything it delivered is exactly the log, in order: no gap, no duplicate across the catch-up/live switch.
    const delivered = seen.events.map(commitOf);
    expectStrictlyIncreasing(delivered);
    const log = await toArray(client.readAll({ fromPosition: START, maxCount: delivered.length }));
    expect(delivered).toEqual(log.map(commitOf));
    await subscription.unsubscribe();
  });

  it('a $all subscription from a position starts after it; one from END only gets new events', async () => {
    const stream = `sensor-${randomUUID()}`;
    await client.appendToStream(stream, numbered('Sampled', 0, 3));
    const existing = await toArray(client.readStream(stream));

    const fromPosition = client.subscribeToAll({ fromPosition: existing[1].event!.position! });
    const afterSecond = collect(fromPosition);
    const fromEnd = client.subscribeToAll({ fromPosition: END });
    const onlyNew = collect(fromEnd);
    await until(() => afterSecond.caughtUp >= 1 && onlyNew.caughtUp >= 1, 'both caught up');
    await client.appendToStream(stream, numbered('Sampled', 3, 1));

    const ofStream = (c: Collected) => c.events.filter((r) => r.event!.streamId === stream);
    await until(() => ofStream(afterSecond).length >= 2 && ofStream(onlyNew).length >= 1, 'events after the position and the live one');
    expect(ofStream(afterSecond).map(dataN)).toEqual([2, 3]);
    expect(afterSecond.events.every((r) => commitOf(r) > commitOf(existing[1]))).toBe(true);
    expect(ofStream(onlyNew).map(dataN)).toEqual([3]);
    expect(onlyNew.events.every((r) => commitOf(r) > commitOf(existing[2]))).toBe(true);
    await Promise.all([fromPosition.unsubscribe(), fromEnd.unsubscribe()]);
  });

  it('a stream subscription catches up from START, from a revision (exclusive) and from END, and waits for a stream that does not exist yet', async () => {
    const stream = `door-${randomUUID()}`;
    const later = `door-${randomUUID()}`;
    await client.appendToStream(stream, numbered('Opened', 0, 3));

    const subscriptions = {
      start: client.subscribeToStream(stream, { fromRevision: START }),
      afterOne: client.subscribeToStream(stream, { fromRevision: 1n }),
      end: client.subscribeToStream(stream, { fromRevision: END }),
      notYet: client.subscribeToStream(later),
    };
    const start = collect(subscriptions.start);
    const afterOne = collect(subscriptions.afterOne);
    const end = collect(subscriptions.end);
    const notYet = collect(subscriptions.notYet);
    await until(() => [start, afterOne, end, notYet].every((c) => c.caughtUp >= 1), 'all caught up');
    await client.appendToStream(stream, numbered('Opened', 3, 2));
    await client.appendToStream(later, numbered('Opened', 0, 1), { expectedRevision: NO_STREAM });

    await until(() => start.events.length >= 5 && afterOne.events.length >= 3 && end.events.length >= 2 && notYet.events.length >= 1, 'stream events');
    await delay(30);
    expect(start.events.map(dataN)).toEqual([0, 1, 2, 3, 4]);
    expect(afterOne.events.map((r) => r.event!.revision)).toEqual([2n, 3n, 4n]);
    expect(end.events.map(dataN)).toEqual([3, 4]);
    expect(notYet.events.map((r) => [r.event!.streamId, r.event!.revision])).toEqual([[later, 0n]]);
    await Promise.all(Object.values(subscriptions).map((s) => s.unsubscribe()));
  });

  it('a filtered $all subscription only delivers matching events and reports checkpoints', async () => {
    const token = randomUUID().slice(0, 8);
    const keep = `tenant-${token}-keep`;
    const skip = `tenant-${token}-skip`;
    await client.appendToStream(keep, numbered(`Kept${token}`, 0, 2));
    await client.appendToStream(skip, numbered(`Skipped${token}`, 0, 2));

    const checkpoints: Position[] = [];
    const byName = client.subscribeToAll({
      fromPosition: START,
      filter: streamNameFilter({ prefixes: [keep], checkpointReached: (_subscription, position) => void checkpoints.push(position) }),
    });
    const byType = client.subscribeToAll({ fromPosition: START, filter: eventTypeFilter({ regex: `^Kept${token}$` }) });
    const named = collect(byName, { checkpoints });
    const typed = collect(byType);
    await until(() => named.caughtUp >= 1 && typed.caughtUp >= 1, 'caught up');
    await client.appendToStream(skip, numbered(`Skipped${token}`, 2, 1));
    await client.appendToStream(keep, numbered(`Kept${token}`, 2, 2));

    await until(() => named.events.length >= 4 && typed.events.length >= 4, 'kept events');
    await delay(30);
    for (const c of [named, typed]) {
      expect(c.events.map((r) => [r.event!.streamId, dataN(r)])).toEqual([
        [keep, 0],
        [keep, 1],
        [keep, 2],
        [keep, 3],
      ]);
    }
    expect(checkpoints.length).toBeGreaterThanOrEqual(1);
    expectStrictlyIncreasing([...new Set(checkpoints.map((p) => p.commit))]);
    await Promise.all([byName.unsubscribe(), byType.unsubscribe()]);
  });

  it('a subscriber that falls behind (slow consumer, 2,000 events in bursts) still gets every event once, in order', async () => {
    const prefix = `burst-${randomUUID()}`;
    const subscription = client.subscribeToAll({ fromPosition: END, filter: streamNameFilter({ prefixes: [prefix] }) });
    // Slow for the first 300 events: the bursts below are written while it lags far beyond the live buffer.
    const seen = collect(subscription, { pauseMs: (received) => (received <= 300 ? 1 : 0) });
    await until(() => seen.caughtUp >= 1, 'caughtUp');

    for (let burst = 0; burst < 20; burst++) {
      await client.appendToStream(`${prefix}-${burst % 4}`, numbered('Tick', burst * 100, 100));
      if (burst % 5 === 4) await delay(5);
    }
    await until(() => seen.events.length >= 2000, '2000 events', 20_000);
    await delay(50);

    expect(seen.error).toBeUndefined();
    expect(seen.events).toHaveLength(2000);
    expect(seen.events.map(dataN)).toEqual(range(0, 2000));
    expect(new Set(seen.events.map((r) => r.event!.id)).size).toBe(2000);
    expectStrictlyIncreasing(seen.events.map(commitOf));
    // It fell behind, was switched back to catching up, and caught up again.
    if (target.local) expect(seen.caughtUp).toBeGreaterThanOrEqual(2);
    await subscription.unsubscribe();
  });

  it('unsubscribe() ends a subscription while the server keeps serving others', async () => {
    const stream = `lamp-${randomUUID()}`;
    const subscription = client.subscribeToStream(stream);
    const seen = collect(subscription);
    await until(() => seen.caughtUp >= 1, 'caughtUp');
    await client.appendToStream(stream, numbered('Switched', 0, 1));
    await until(() => seen.events.length >= 1, 'first event');

    await subscription.unsubscribe();
    await client.appendToStream(stream, numbered('Switched', 1, 1));
    await delay(100);
    expect(seen.events.map(dataN)).toEqual([0]);
    expect(seen.error).toBeUndefined();

    for (let i = 0; i < 20; i++) {
      const churn = client.subscribeToAll({ fromPosition: END });
      await new Promise<void>((resolve) => churn.once('confirmation', resolve));
      await churn.unsubscribe();
    }
    const again = client.subscribeToStream(stream);
    const second = collect(again);
    await until(() => second.events.length >= 2, 'a new subscription');
    expect(second.events.map(dataN)).toEqual([0, 1]);
    await again.unsubscribe();
    expect((await toArray(client.readStream(stream))).map(dataN)).toEqual([0, 1]);
  });

  localIt('answers UNIMPLEMENTED for RPCs it leaves out', async () => {
    const stream = `gone-${randomUUID()}`;
    await client.appendToStream(stream, numbered('Created', 0, 1));
    await expect(client.deleteStream(stream)).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
    await expect(client.getProjectionStatus('some-projection')).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
    expect((await toArray(client.readStream(stream))).map(dataN)).toEqual([0]);
  });

  localIt('serves gossip for esdb+discover:// connections', async () => {
    const discovering = EventStoreDBClient.connectionString(`esdb+discover://127.0.0.1:${server!.port}?tls=false`);
    try {
      const stream = `gossip-${randomUUID()}`;
      await discovering.appendToStream(stream, numbered('Found', 0, 1), { expectedRevision: NO_STREAM });
      expect((await toArray(client.readStream(stream))).map(dataN)).toEqual([0]);
    } finally {
      await discovering.dispose();
    }
  });
});

describe('startKurrentProtocolServer().close()', () => {
  it('shuts the server down even with open subscriptions, and frees the port', async () => {
    const server = await startKurrentProtocolServer();
    expect(server.url).toBe(`esdb://127.0.0.1:${server.port}?tls=false`);
    const client = EventStoreDBClient.connectionString(server.url);
    try {
      await client.appendToStream('s', numbered('E', 0, 1));
      const seen = collect(client.subscribeToAll());
      await until(() => seen.caughtUp >= 1 && seen.events.length === 1, 'subscription live');

      const started = Date.now();
      await server.close();
      expect(Date.now() - started).toBeLessThan(1000);
      await expect(client.appendToStream('s', numbered('E', 1, 1))).rejects.toThrow();
      await until(() => seen.error !== undefined, 'the subscription to end with an error');

      const again = await startKurrentProtocolServer({ port: server.port });
      expect(again.port).toBe(server.port);
      await again.close();
    } finally {
      await client.dispose();
      await server.close();
    }
  });
});
