/**
 * In-process KurrentDB / EventStoreDB test double that speaks the real gRPC protocol.
 *
 * No KurrentDB server can run where the tests run, so this module serves the wire protocol of a single
 * KurrentDB 24.x node with `@grpc/grpc-js`, using the service definitions and protobuf message classes
 * generated inside `@eventstore/db-client` itself. The real client (`EventStoreDBClient.connectionString`
 * `esdb://127.0.0.1:PORT?tls=false`) talks to it unchanged. Events live in memory only.
 *
 * Implemented RPCs
 * - `ServerFeatures.GetSupportedMethods`: reports version 24.10.0 and exactly the methods below, so the client
 *   picks `Streams.BatchAppend` for appends (and `Streams.Append` when a call carries per-call credentials).
 * - `Streams.Append` (client streaming) and `Streams.BatchAppend` (bidi, chunked by correlation id): expected
 *   revision any / no_stream / stream_exists / exact, wrong-expected-version replies shaped as the server shapes
 *   them, idempotent retries by event id with the server's own rules (see `checkCommit`), the 1 MiB default
 *   maximum append size, and the required `type` / `content-type` proposed-message metadata.
 * - `Streams.Read`: stream and `$all` reads forwards / backwards from start / end / a revision or position with a
 *   count, `$all` reads with a stream-name or event-type filter (prefixes or regex), `stream_not_found` for
 *   missing streams, structured or string UUIDs as requested; catch-up subscriptions to a stream or to `$all`
 *   (optionally filtered, with checkpoints) that confirm, catch up from the log, send `caughtUp`, then go live.
 * - `Gossip.Read`: a one-member cluster (this node, leader), enough for `esdb+discover://` connections.
 *
 * Left out: `Streams.Delete` / `Streams.Tombstone` (answer UNIMPLEMENTED), persistent subscriptions,
 * projections, users, operations, monitoring (services not registered, so grpc-js answers UNIMPLEMENTED),
 * authentication / ACLs, stream metadata semantics ($maxAge, $maxCount, ... are stored as plain events in
 * `$$stream` but not enforced), link resolution (`resolve_links` is ignored), system events, scavenging,
 * the read `ControlOption` compatibility levels (first/last stream position and fell-behind messages).
 */
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { GossipService, IGossipServer } from '@eventstore/db-client/generated/gossip_grpc_pb';
import { ClusterInfo, EndPoint, MemberInfo } from '@eventstore/db-client/generated/gossip_pb';
import { IServerFeaturesServer, ServerFeaturesService } from '@eventstore/db-client/generated/serverfeatures_grpc_pb';
import { SupportedMethod, SupportedMethods } from '@eventstore/db-client/generated/serverfeatures_pb';
import {
  AllStreamPosition,
  BadRequest,
  Empty,
  MaximumAppendSizeExceeded,
  StreamIdentifier,
  Timeout,
  UUID,
  WrongExpectedVersion as WrongExpectedVersionDetails,
} from '@eventstore/db-client/generated/shared_pb';
import { Code } from '@eventstore/db-client/generated/code_pb';
import { Status } from '@eventstore/db-client/generated/status_pb';
import { IStreamsServer, StreamsService } from '@eventstore/db-client/generated/streams_grpc_pb';
import { AppendReq, AppendResp, BatchAppendReq, BatchAppendResp, ReadReq, ReadResp } from '@eventstore/db-client/generated/streams_pb';

// google-protobuf ships no typings at the top level (they sit inside @eventstore/db-client), so the two
// well-known types are loaded at runtime and typed from the generated declarations that use them.
type GoogleAny = NonNullable<ReturnType<Status['getDetails']>>;
type GoogleEmpty = NonNullable<ReturnType<BatchAppendResp.Success['getNoStream']>>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Any } = require('google-protobuf/google/protobuf/any_pb') as { Any: new () => GoogleAny };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Empty: GoogleEmptyCtor } = require('google-protobuf/google/protobuf/empty_pb') as { Empty: new () => GoogleEmpty };

export interface KurrentProtocolServer {
  /** Connection string for the real client, e.g. `esdb://127.0.0.1:PORT?tls=false`. */
  url: string;
  port: number;
  /** Ends every open call (subscriptions, batch-append streams) and shuts the gRPC server down. */
  close(): Promise<void>;
}

const SERVER_VERSION = '24.10.0';
/** KurrentDB's default `MaxAppendSize`. */
const MAX_APPEND_SIZE = 1024 * 1024;
/** Size of the live-event buffer of a server-side subscription (KurrentDB `DefaultLiveBufferSize`). */
const LIVE_BUFFER_SIZE = 32;
/** KurrentDB `DefaultReadBatchSize`, the default filter search window. */
const DEFAULT_SEARCH_WINDOW = 32;
/** .NET ticks (100 ns) per millisecond; `created` is sent as ticks since the Unix epoch. */
const TICKS_PER_MS = 10_000n;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// ---------------------------------------------------------------------------------------------------------------
// The in-memory log
// ---------------------------------------------------------------------------------------------------------------

interface StoredEvent {
  streamName: string;
  revision: number;
  /** Canonical lower-case UUID. */
  id: string;
  type: string;
  isJson: boolean;
  data: Uint8Array;
  customMetadata: Uint8Array;
  /** Ticks since the Unix epoch. */
  created: bigint;
  /** Log position; commit and prepare positions are both this value (events are self-committed). */
  position: number;
}

interface ProposedEvent {
  id: string;
  type: string;
  isJson: boolean;
  data: Uint8Array;
  customMetadata: Uint8Array;
}

type ExpectedRevision = { kind: 'any' } | { kind: 'no_stream' } | { kind: 'stream_exists' } | { kind: 'exact'; revision: bigint };

type AppendOutcome =
  /** `currentRevision` -1 means the stream still does not exist (empty write); `position` is absent for empty writes. */
  { kind: 'success'; currentRevision: number; position?: number } | { kind: 'wrong_expected_version'; currentRevision: number; expected: ExpectedRevision };

class InMemoryLog {
  /** Every event in commit order: the `$all` stream. */
  readonly all: StoredEvent[] = [];
  private readonly streams = new Map<string, StoredEvent[]>();
  /** Last written (stream, revision) per event id, like the server's committed-events cache used for idempotency. */
  private readonly committedIds = new Map<string, StoredEvent>();
  private nextPosition = 0;
  private appended: { promise: Promise<void>; resolve: () => void } = InMemoryLog.signal();

  private static signal(): { promise: Promise<void>; resolve: () => void } {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  }

  stream(name: string): StoredEvent[] | undefined {
    return this.streams.get(name);
  }

  /** Resolves after the next append that writes at least one event. */
  nextAppend(): Promise<void> {
    return this.appended.promise;
  }

  append(streamName: string, expected: ExpectedRevision, proposed: ProposedEvent[]): AppendOutcome {
    const existing = this.streams.get(streamName) ?? [];
    const current = existing.length - 1;
    const decision = this.checkCommit(streamName, existing, expected, proposed);
    if (decision.kind === 'wrong_expected_version') return { kind: 'wrong_expected_version', currentRevision: current, expected };
    if (decision.kind === 'idempotent') {
      const last = existing[decision.lastRevision];
      return { kind: 'success', currentRevision: decision.lastRevision, position: last.position };
    }
    if (proposed.length === 0) return { kind: 'success', currentRevision: current };

    const stream = this.streams.get(streamName) ?? [];
    this.streams.set(streamName, stream);
    const created = BigInt(Date.now()) * TICKS_PER_MS;
    for (const event of proposed) {
      const stored: StoredEvent = { ...event, streamName, revision: stream.length, created, position: this.nextPosition };
      // Positions advance by a byte-like record size, so they are strictly increasing and sparse like the real log's.
      this.nextPosition += 64 + 2 * (streamName.length + event.type.length) + event.data.length + event.customMetadata.length;
      stream.push(stored);
      this.all.push(stored);
      this.committedIds.set(stored.id, stored);
    }
    const signal = this.appended;
    this.appended = InMemoryLog.signal();
    signal.resolve();
    return { kind: 'success', currentRevision: stream.length - 1, position: stream[stream.length - 1].position };
  }

  /**
   * The server's commit check (`IndexWriter.CheckCommit`): decides between writing, an idempotent no-op that
   * answers with the original revision and position, and a wrong expected version. A retry that is only
   * partly already written ("corrupted idempotency") is answered as a wrong expected version, as the server does.
   */
  private checkCommit(
    streamName: string,
    stream: StoredEvent[],
    expected: ExpectedRevision,
    proposed: ProposedEvent[],
  ): { kind: 'write' } | { kind: 'idempotent'; lastRevision: number } | { kind: 'wrong_expected_version' } {
    const current = stream.length - 1;
    if (expected.kind === 'stream_exists' && current < 0) return { kind: 'wrong_expected_version' };

    if (expected.kind === 'any' || expected.kind === 'stream_exists') {
      // Any / StreamExists: idempotent when every id is already in this stream (at any revision).
      let lastRevision = -1;
      for (let i = 0; i < proposed.length; i++) {
        const known = this.committedIds.get(proposed[i].id);
        if (!known || known.streamName !== streamName) return i === 0 ? { kind: 'write' } : { kind: 'wrong_expected_version' };
        lastRevision = known.revision;
      }
      return proposed.length === 0 ? { kind: 'write' } : { kind: 'idempotent', lastRevision };
    }

    const expectedNumber = expected.kind === 'no_stream' ? -1n : expected.revision;
    if (expectedNumber < BigInt(current)) {
      // Writing "earlier" than the end: idempotent only if the events right after the expected revision carry these ids.
      let revision = Number(expectedNumber);
      for (let i = 0; i < proposed.length; i++) {
        revision += 1;
        if (stream[revision]?.id === proposed[i].id) continue;
        return { kind: 'wrong_expected_version' };
      }
      return proposed.length === 0 ? { kind: 'wrong_expected_version' } : { kind: 'idempotent', lastRevision: revision };
    }
    if (expectedNumber > BigInt(current)) return { kind: 'wrong_expected_version' };
    return { kind: 'write' };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Protocol helpers
// ---------------------------------------------------------------------------------------------------------------

class RpcError extends Error {
  constructor(
    readonly code: grpc.status,
    readonly details: string,
    readonly metadata: grpc.Metadata = new grpc.Metadata(),
  ) {
    super(details);
  }
}

/** Exceptions the way the server attaches them to a gRPC status: an `exception` trailer the client maps to its error classes. */
function exceptionMetadata(entries: Record<string, string>): grpc.Metadata {
  const metadata = new grpc.Metadata();
  for (const [key, value] of Object.entries(entries)) metadata.set(key, value);
  return metadata;
}

function maxAppendSizeExceeded(): RpcError {
  return new RpcError(
    grpc.status.INVALID_ARGUMENT,
    `Maximum Append Size of ${MAX_APPEND_SIZE} Exceeded.`,
    exceptionMetadata({ exception: 'maximum-append-size-exceeded', 'maximum-append-size': String(MAX_APPEND_SIZE) }),
  );
}

function requiredMetadataPropertyMissing(property: string): RpcError {
  return new RpcError(
    grpc.status.INVALID_ARGUMENT,
    `Required Metadata Property '${property}' is missing`,
    exceptionMetadata({ exception: 'missing-required-metadata-property', 'required-metadata-properties': 'type,content-type' }),
  );
}

function toServiceError(error: unknown): grpc.ServerErrorResponse {
  if (error instanceof RpcError) return Object.assign(new Error(error.details), { code: error.code, details: error.details, metadata: error.metadata });
  const details = error instanceof Error ? error.message : String(error);
  return Object.assign(new Error(details), { code: grpc.status.UNKNOWN, details });
}

function streamIdentifier(name: string): StreamIdentifier {
  const identifier = new StreamIdentifier();
  identifier.setStreamName(Buffer.from(name, 'utf8'));
  return identifier;
}

function streamNameOf(identifier: StreamIdentifier | undefined): string {
  const name = identifier ? Buffer.from(identifier.getStreamName_asU8()).toString('utf8') : '';
  if (!name) throw new RpcError(grpc.status.INVALID_ARGUMENT, 'Required field StreamIdentifier not set.');
  return name;
}

function parseUuid(uuid: UUID | undefined): string {
  if (!uuid) throw new RpcError(grpc.status.INVALID_ARGUMENT, 'Required field Id not set.');
  let text: string;
  if (uuid.hasStructured()) {
    const structured = uuid.getStructured()!;
    const msb = BigInt.asUintN(64, BigInt(structured.getMostSignificantBits())).toString(16).padStart(16, '0');
    const lsb = BigInt.asUintN(64, BigInt(structured.getLeastSignificantBits())).toString(16).padStart(16, '0');
    const hex = msb + lsb;
    text = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  } else {
    text = uuid.getString().toLowerCase();
  }
  if (!UUID_PATTERN.test(text)) throw new RpcError(grpc.status.INVALID_ARGUMENT, `'${text}' is not a valid UUID.`);
  return text;
}

/** The server answers with string UUIDs when asked to, else with the structured (Java-style signed halves) form. */
function uuidMessage(id: string, structured: boolean): UUID {
  const uuid = new UUID();
  if (!structured) return uuid.setString(id);
  const hex = id.replace(/-/g, '');
  const parts = new UUID.Structured();
  parts.setMostSignificantBits(BigInt.asIntN(64, BigInt(`0x${hex.slice(0, 16)}`)).toString());
  parts.setLeastSignificantBits(BigInt.asIntN(64, BigInt(`0x${hex.slice(16)}`)).toString());
  return uuid.setStructured(parts);
}

function proposedEvent(message: AppendReq.ProposedMessage | BatchAppendReq.ProposedMessage): ProposedEvent {
  const metadata = message.getMetadataMap();
  const type = metadata.get('type');
  if (type === undefined) throw requiredMetadataPropertyMissing('type');
  const contentType = metadata.get('content-type');
  if (contentType === undefined) throw requiredMetadataPropertyMissing('content-type');
  return {
    id: parseUuid(message.getId()),
    type,
    // The server keeps only "is JSON"; every other content type is read back as application/octet-stream.
    isJson: contentType === 'application/json',
    data: message.getData_asU8(),
    customMetadata: message.getCustomMetadata_asU8(),
  };
}

/** Approximates the server's `Event.SizeOnDisk` used against the maximum append size. */
function sizeOnDisk(event: ProposedEvent): number {
  return event.data.length + event.customMetadata.length + 2 * event.type.length;
}

function expectedFromAppendOptions(options: AppendReq.Options): ExpectedRevision {
  if (options.hasRevision()) return { kind: 'exact', revision: BigInt(options.getRevision()) };
  if (options.hasNoStream()) return { kind: 'no_stream' };
  if (options.hasStreamExists()) return { kind: 'stream_exists' };
  if (options.hasAny()) return { kind: 'any' };
  throw new RpcError(grpc.status.INVALID_ARGUMENT, "'None' is not a valid ExpectedStreamRevisionOneofCase");
}

function expectedFromBatchOptions(options: BatchAppendReq.Options): ExpectedRevision {
  if (options.hasStreamPosition()) return { kind: 'exact', revision: BigInt(options.getStreamPosition()) };
  if (options.hasNoStream()) return { kind: 'no_stream' };
  if (options.hasStreamExists()) return { kind: 'stream_exists' };
  if (options.hasAny()) return { kind: 'any' };
  throw new RpcError(grpc.status.INVALID_ARGUMENT, "'None' is not a valid ExpectedStreamPositionOneofCase");
}

function appendResponse(outcome: AppendOutcome): AppendResp {
  const response = new AppendResp();
  if (outcome.kind === 'success') {
    const success = new AppendResp.Success();
    if (outcome.currentRevision < 0) success.setNoStream(new Empty());
    else success.setCurrentRevision(String(outcome.currentRevision));
    if (outcome.position === undefined) success.setNoPosition(new Empty());
    else success.setPosition(new AppendResp.Position().setCommitPosition(String(outcome.position)).setPreparePosition(String(outcome.position)));
    return response.setSuccess(success);
  }
  // Filled like Streams.Append does: the current fields plus the deprecated 20.6.0 ones.
  const wrong = new AppendResp.WrongExpectedVersion();
  const { expected } = outcome;
  if (expected.kind === 'any') wrong.setExpectedAny(new Empty()).setAny2060(new Empty());
  else if (expected.kind === 'stream_exists') wrong.setExpectedStreamExists(new Empty()).setStreamExists2060(new Empty());
  else if (expected.kind === 'no_stream') wrong.setExpectedNoStream(new Empty());
  else wrong.setExpectedRevision(expected.revision.toString()).setExpectedRevision2060(Number(expected.revision));
  if (outcome.currentRevision < 0) wrong.setCurrentNoStream(new Empty()).setNoStream2060(new Empty());
  else wrong.setCurrentRevision(String(outcome.currentRevision)).setCurrentRevision2060(outcome.currentRevision);
  return response.setWrongExpectedVersion(wrong);
}

/** A `google.rpc.Status` carrying one of the client's detail messages packed in an `Any`, as BatchAppend errors are sent. */
function rpcStatus(code: Code, message: string, details: { serializeBinary(): Uint8Array }, typeName: string): Status {
  const any = new Any();
  any.pack(details.serializeBinary(), `event_store.client.${typeName}`);
  return new Status().setCode(code).setMessage(message).setDetails(any);
}

function batchErrorStatus(error: unknown): Status {
  if (error instanceof RpcError && error.metadata.get('exception')[0] === 'maximum-append-size-exceeded') {
    return rpcStatus(Code.INVALID_ARGUMENT, 'MaximumAppendSizeExceeded', new MaximumAppendSizeExceeded().setMaxappendsize(MAX_APPEND_SIZE), 'MaximumAppendSizeExceeded');
  }
  const message = error instanceof Error ? error.message : String(error);
  return rpcStatus(Code.INVALID_ARGUMENT, 'BadRequest', new BadRequest().setMessage(message), 'BadRequest');
}

function batchAppendResponse(outcome: AppendOutcome): BatchAppendResp {
  const response = new BatchAppendResp();
  if (outcome.kind === 'success') {
    const success = new BatchAppendResp.Success();
    if (outcome.currentRevision < 0) success.setNoStream(new GoogleEmptyCtor());
    else success.setCurrentRevision(String(outcome.currentRevision));
    if (outcome.position === undefined) success.setNoPosition(new GoogleEmptyCtor());
    else success.setPosition(new AllStreamPosition().setCommitPosition(String(outcome.position)).setPreparePosition(String(outcome.position)));
    return response.setSuccess(success);
  }
  const details = new WrongExpectedVersionDetails();
  if (outcome.currentRevision < 0) details.setCurrentNoStream(new GoogleEmptyCtor());
  else details.setCurrentStreamRevision(String(outcome.currentRevision));
  const { expected } = outcome;
  if (expected.kind === 'any') details.setExpectedAny(new GoogleEmptyCtor());
  else if (expected.kind === 'no_stream') details.setExpectedNoStream(new GoogleEmptyCtor());
  else if (expected.kind === 'stream_exists') details.setExpectedStreamExists(new GoogleEmptyCtor());
  else details.setExpectedStreamPosition(expected.revision.toString());
  return response.setError(rpcStatus(Code.ALREADY_EXISTS, 'WrongExpectedVersion', details, 'WrongExpectedVersion'));
}

function readEventResponse(event: StoredEvent, structuredIds: boolean): ReadResp {
  const position = String(event.position);
  const recorded = new ReadResp.ReadEvent.RecordedEvent()
    .setId(uuidMessage(event.id, structuredIds))
    .setStreamIdentifier(streamIdentifier(event.streamName))
    .setStreamRevision(String(event.revision))
    .setCommitPosition(position)
    .setPreparePosition(position)
    .setData(event.data)
    .setCustomMetadata(event.customMetadata);
  const metadata = recorded.getMetadataMap();
  metadata.set('type', event.type);
  metadata.set('content-type', event.isJson ? 'application/json' : 'application/octet-stream');
  metadata.set('created', event.created.toString());
  return new ReadResp().setEvent(new ReadResp.ReadEvent().setEvent(recorded).setCommitPosition(position));
}

type EventPredicate = (event: StoredEvent) => boolean;

function eventFilter(options: ReadReq.Options.FilterOptions): EventPredicate {
  const onStream = options.hasStreamIdentifier();
  const expression = onStream ? options.getStreamIdentifier() : options.getEventType();
  if (!expression) throw new RpcError(grpc.status.INVALID_ARGUMENT, 'A filter needs a stream identifier or an event type expression.');
  const subject = (event: StoredEvent): string => (onStream ? event.streamName : event.type);
  const regex = expression.getRegex();
  if (regex) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(regex);
    } catch (error) {
      throw new RpcError(grpc.status.INVALID_ARGUMENT, `Invalid filter regex: ${(error as Error).message}`);
    }
    return (event) => pattern.test(subject(event));
  }
  const prefixes = expression.getPrefixList();
  return (event) => prefixes.some((prefix) => subject(event).startsWith(prefix));
}

/** A client-supplied `$all` position; it is compared as the `(commit, prepare)` pair the server uses. */
interface LogPosition {
  commit: bigint;
  prepare: bigint;
}

function logPosition(position: ReadReq.Options.Position | undefined): LogPosition {
  return { commit: BigInt(position?.getCommitPosition() ?? 0), prepare: BigInt(position?.getPreparePosition() ?? 0) };
}

/** Index of the first event at (`inclusive`) or after the position, in the position-ordered log (our records have commit == prepare). */
function firstIndexFrom(log: StoredEvent[], { commit, prepare }: LogPosition, inclusive: boolean): number {
  const before = (event: StoredEvent): boolean => {
    const position = BigInt(event.position);
    if (position !== commit) return position < commit;
    return inclusive ? position < prepare : position <= prepare;
  };
  let low = 0;
  let high = log.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(log[middle])) low = middle + 1;
    else high = middle;
  }
  return low;
}

// ---------------------------------------------------------------------------------------------------------------
// Server-streaming calls: reads and subscriptions
// ---------------------------------------------------------------------------------------------------------------

type ReadCall = grpc.ServerWritableStream<ReadReq, ReadResp>;

/** Writes with back-pressure: waits for `drain` when grpc-js' buffer is full; resolves false once the call is gone. */
class CallWriter {
  private readonly stopped: Promise<void>;
  private stop!: () => void;
  done = false;

  constructor(private readonly call: ReadCall) {
    this.stopped = new Promise<void>((resolve) => (this.stop = resolve));
    call.on('cancelled', () => this.finish());
    call.on('close', () => this.finish());
  }

  finish(): void {
    this.done = true;
    this.stop();
  }

  async write(response: ReadResp): Promise<boolean> {
    if (this.done || this.call.cancelled) return false;
    if (!this.call.write(response)) {
      await Promise.race([new Promise<void>((resolve) => this.call.once('drain', () => resolve())), this.stopped]);
    }
    return !this.done;
  }

  /** Resolves when `signal` settles or the call is gone. */
  async until(signal: Promise<void>): Promise<void> {
    await Promise.race([signal, this.stopped]);
  }

  end(): void {
    if (!this.done && !this.call.cancelled) this.call.end();
    this.finish();
  }

  fail(error: unknown): void {
    if (!this.done && !this.call.cancelled) this.call.emit('error', toServiceError(error));
    this.finish();
  }
}

/** Where a subscription reads from: the `$all` log or one stream (which may not exist yet). */
interface SubscriptionSource {
  /** The event at `index`, if written. */
  at(index: number): StoredEvent | undefined;
  /** Number of events written so far. */
  length(): number;
}

class ProtocolServer {
  private readonly log = new InMemoryLog();
  private readonly openCalls = new Set<{ finish(): void }>();
  private closed = false;

  constructor(private readonly port: () => number) {}

  readonly serverFeatures: IServerFeaturesServer = {
    getSupportedMethods: (_call, callback) => {
      const methods: Array<[string, string, string[]]> = [
        ['event_store.client.streams.streams', 'read', ['position', 'events']],
        ['event_store.client.streams.streams', 'append', []],
        ['event_store.client.streams.streams', 'batchappend', []],
        ['event_store.client.gossip.gossip', 'read', []],
        ['event_store.client.server_features.serverfeatures', 'getsupportedmethods', []],
      ];
      const supported = new SupportedMethods().setEventStoreServerVersion(SERVER_VERSION);
      for (const [service, method, features] of methods) {
        supported.addMethods(new SupportedMethod().setServiceName(service).setMethodName(method).setFeaturesList(features));
      }
      callback(null, supported);
    },
  };

  readonly gossip: IGossipServer = {
    read: (_call, callback) => {
      const member = new MemberInfo()
        .setInstanceId(uuidMessage('0a0a0a0a-0000-4000-8000-000000000001', true))
        .setTimeStamp((BigInt(Date.now()) * TICKS_PER_MS).toString())
        .setState(MemberInfo.VNodeState.LEADER)
        .setIsAlive(true)
        .setHttpEndPoint(new EndPoint().setAddress('127.0.0.1').setPort(this.port()));
      callback(null, new ClusterInfo().setMembersList([member]));
    },
  };

  readonly streams: IStreamsServer = {
    read: (call) => void this.read(call),
    append: (call, callback) => this.append(call, callback),
    batchAppend: (call) => this.batchAppend(call),
    delete: (_call, callback) => callback({ code: grpc.status.UNIMPLEMENTED, details: 'Streams.Delete is not implemented by the test double' }),
    tombstone: (_call, callback) => callback({ code: grpc.status.UNIMPLEMENTED, details: 'Streams.Tombstone is not implemented by the test double' }),
  };

  /** Stops every open call's work; returns whether any call was still open. */
  shutdown(): boolean {
    this.closed = true;
    const open = this.openCalls.size > 0;
    for (const call of this.openCalls) call.finish();
    this.openCalls.clear();
    return open;
  }

  private track<T extends { finish(): void }>(call: T): () => void {
    this.openCalls.add(call);
    return () => this.openCalls.delete(call);
  }

  // --- Streams.Append ------------------------------------------------------------------------------------------

  private append(call: grpc.ServerReadableStream<AppendReq, AppendResp>, callback: grpc.sendUnaryData<AppendResp>): void {
    let options: AppendReq.Options | undefined;
    const events: ProposedEvent[] = [];
    let size = 0;
    let failed = false;
    const fail = (error: unknown): void => {
      if (failed) return;
      failed = true;
      callback(toServiceError(error));
    };
    call.on('data', (request: AppendReq) => {
      if (failed) return;
      try {
        if (!options) {
          if (!request.hasOptions()) throw new RpcError(grpc.status.INVALID_ARGUMENT, 'The first AppendReq must carry the options.');
          options = request.getOptions()!;
          return;
        }
        if (!request.hasProposedMessage()) throw new RpcError(grpc.status.INVALID_ARGUMENT, 'Expected a proposed message.');
        const event = proposedEvent(request.getProposedMessage()!);
        size += sizeOnDisk(event);
        if (size > MAX_APPEND_SIZE) throw maxAppendSizeExceeded();
        events.push(event);
      } catch (error) {
        fail(error);
      }
    });
    call.on('end', () => {
      if (failed) return;
      try {
        if (!options) throw new RpcError(grpc.status.INVALID_ARGUMENT, 'AppendReq options missing.');
        const outcome = this.log.append(streamNameOf(options.getStreamIdentifier()), expectedFromAppendOptions(options), events);
        callback(null, appendResponse(outcome));
      } catch (error) {
        fail(error);
      }
    });
    call.on('error', (error) => fail(error));
  }

  // --- Streams.BatchAppend -------------------------------------------------------------------------------------

  private batchAppend(call: grpc.ServerDuplexStream<BatchAppendReq, BatchAppendResp>): void {
    interface PendingWrite {
      correlationId: UUID;
      streamName: string;
      expected: ExpectedRevision;
      events: ProposedEvent[];
      size: number;
    }
    const pending = new Map<string, PendingWrite>();
    const untrack = this.track({ finish: () => pending.clear() });
    const respond = (response: BatchAppendResp, correlationId: UUID | undefined, streamName: string): void => {
      if (call.cancelled || call.writableEnded) return;
      if (correlationId) response.setCorrelationId(correlationId);
      response.setStreamIdentifier(streamIdentifier(streamName));
      call.write(response);
    };

    call.on('data', (request: BatchAppendReq) => {
      const correlationId = request.getCorrelationId();
      let key: string;
      try {
        key = parseUuid(correlationId);
      } catch {
        return; // without a correlation id there is nobody to answer
      }
      let write = pending.get(key);
      try {
        if (request.hasOptions()) {
          const options = request.getOptions()!;
          const streamName = streamNameOf(options.getStreamIdentifier());
          // The requested deadline caps the write; one already past is answered with a timeout, like the server.
          const deadline = options.getDeadline()?.toDate();
          if (deadline && deadline.getTime() <= Date.now()) {
            respond(new BatchAppendResp().setError(rpcStatus(Code.DEADLINE_EXCEEDED, 'Timeout', new Timeout(), 'Timeout')), correlationId, streamName);
            return;
          }
          write ??= { correlationId: correlationId!, streamName, expected: expectedFromBatchOptions(options), events: [], size: 0 };
          pending.set(key, write);
        }
        if (!write) return;
        for (const message of request.getProposedMessagesList()) {
          const event = proposedEvent(message);
          write.size += sizeOnDisk(event);
          write.events.push(event);
        }
        if (write.size > MAX_APPEND_SIZE) {
          pending.delete(key);
          respond(new BatchAppendResp().setError(batchErrorStatus(maxAppendSizeExceeded())), correlationId, write.streamName);
          return;
        }
        if (!request.getIsFinal()) return;
        pending.delete(key);
        respond(batchAppendResponse(this.log.append(write.streamName, write.expected, write.events)), correlationId, write.streamName);
      } catch (error) {
        pending.delete(key);
        respond(new BatchAppendResp().setError(batchErrorStatus(error)), correlationId, write?.streamName ?? '');
      }
    });
    call.on('end', () => {
      untrack();
      if (!call.writableEnded) call.end();
    });
    call.on('cancelled', () => untrack());
    call.on('error', () => untrack());
  }

  // --- Streams.Read --------------------------------------------------------------------------------------------

  private async read(call: ReadCall): Promise<void> {
    const writer = new CallWriter(call);
    const untrack = this.track(writer);
    try {
      const options = call.request.getOptions();
      if (!options) throw new RpcError(grpc.status.INVALID_ARGUMENT, 'ReadReq options missing.');
      if (!options.hasUuidOption()) throw new RpcError(grpc.status.INVALID_ARGUMENT, "Required argument 'uuidOption' missing.");
      const structuredIds = options.getUuidOption()!.hasStructured();
      const backwards = options.getReadDirection() === ReadReq.Options.ReadDirection.BACKWARDS;
      const filter = options.hasFilter() ? options.getFilter()! : undefined;
      const isSubscription = options.hasSubscription();
      if (!isSubscription && !options.hasCount()) throw new RpcError(grpc.status.INVALID_ARGUMENT, 'ReadReq needs a count or a subscription.');
      if ((filter && options.hasStream()) || (isSubscription && backwards)) {
        throw new RpcError(grpc.status.INVALID_ARGUMENT, 'The combination of stream, count, direction and filter options is invalid.');
      }

      if (options.hasStream()) {
        const streamOptions = options.getStream()!;
        const name = streamNameOf(streamOptions.getStreamIdentifier());
        if (isSubscription) await this.subscribeToStream(writer, name, streamOptions, structuredIds);
        else await this.readStream(writer, name, streamOptions, BigInt(options.getCount()), backwards, structuredIds);
      } else if (options.hasAll()) {
        const allOptions = options.getAll()!;
        const predicate = filter ? eventFilter(filter) : undefined;
        if (isSubscription) await this.subscribeToAll(writer, allOptions, predicate, filter, structuredIds);
        else await this.readAll(writer, allOptions, BigInt(options.getCount()), backwards, predicate, structuredIds);
      } else {
        throw new RpcError(grpc.status.INVALID_ARGUMENT, 'ReadReq needs stream or all options.');
      }
      writer.end();
    } catch (error) {
      writer.fail(error);
    } finally {
      untrack();
    }
  }

  private async readStream(writer: CallWriter, name: string, options: ReadReq.Options.StreamOptions, count: bigint, backwards: boolean, structuredIds: boolean) {
    const stream = this.log.stream(name);
    if (!stream) {
      await writer.write(new ReadResp().setStreamNotFound(new ReadResp.StreamNotFound().setStreamIdentifier(streamIdentifier(name))));
      return;
    }
    const last = stream.length - 1;
    let from: number;
    if (options.hasStart()) from = backwards ? -1 : 0;
    else if (options.hasEnd()) from = backwards ? last : stream.length;
    else {
      // Stream reads include the revision they start from, in both directions.
      const revision = BigInt(options.getRevision());
      from = revision > BigInt(last) ? (backwards ? last : stream.length) : Number(revision);
    }
    let remaining = count;
    for (let index = from; remaining > 0n && index >= 0 && index < stream.length; index += backwards ? -1 : 1) {
      if (!(await writer.write(readEventResponse(stream[index], structuredIds)))) return;
      remaining -= 1n;
    }
  }

  private async readAll(writer: CallWriter, options: ReadReq.Options.AllOptions, count: bigint, backwards: boolean, predicate: EventPredicate | undefined, structuredIds: boolean) {
    const log = this.log.all;
    let from: number;
    if (options.hasStart()) from = backwards ? -1 : 0;
    else if (options.hasEnd()) from = backwards ? log.length - 1 : log.length;
    else {
      // Forwards reads include the event at the position; backwards reads return the events before it.
      const position = logPosition(options.getPosition());
      from = firstIndexFrom(log, position, true) - (backwards ? 1 : 0);
    }
    let remaining = count;
    for (let index = from; remaining > 0n && index >= 0 && index < log.length; index += backwards ? -1 : 1) {
      const event = log[index];
      if (predicate && !predicate(event)) continue;
      if (!(await writer.write(readEventResponse(event, structuredIds)))) return;
      remaining -= 1n;
    }
  }

  private subscribeToStream(writer: CallWriter, name: string, options: ReadReq.Options.StreamOptions, structuredIds: boolean) {
    const source: SubscriptionSource = {
      at: (index) => this.log.stream(name)?.[index],
      length: () => this.log.stream(name)?.length ?? 0,
    };
    // Catch-up subscriptions send the events *after* the checkpoint revision; END starts after the current last event.
    let next: number;
    if (options.hasStart()) next = 0;
    else if (options.hasEnd()) next = source.length();
    else {
      const revision = BigInt(options.getRevision());
      next = revision >= BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(revision) + 1;
    }
    return this.runSubscription(writer, source, next, structuredIds);
  }

  private subscribeToAll(writer: CallWriter, options: ReadReq.Options.AllOptions, predicate: EventPredicate | undefined, filter: ReadReq.Options.FilterOptions | undefined, structuredIds: boolean) {
    const log = this.log.all;
    const source: SubscriptionSource = { at: (index) => log[index], length: () => log.length };
    let next: number;
    let checkpoint: number | undefined;
    if (options.hasStart()) next = 0;
    else if (options.hasEnd()) next = log.length;
    else {
      // Events strictly after the given position.
      const position = logPosition(options.getPosition());
      next = firstIndexFrom(log, position, false);
      checkpoint = Number(position.commit);
    }
    let checkpoints: { interval: number; last?: number } | undefined;
    if (filter) {
      if (filter.getCheckpointintervalmultiplier() <= 0) throw new RpcError(grpc.status.INVALID_ARGUMENT, 'checkpointIntervalMultiplier must be greater than 0');
      const window = filter.hasMax() ? filter.getMax() : DEFAULT_SEARCH_WINDOW;
      checkpoints = { interval: filter.getCheckpointintervalmultiplier() * window, last: checkpoint };
    }
    return this.runSubscription(writer, source, next, structuredIds, predicate, checkpoints);
  }

  /**
   * A catch-up subscription as the server runs it: confirm, read the store from the checkpoint, send `caughtUp`
   * and go live. While live, a subscriber more than the live buffer (32 events) behind has fallen behind: like
   * the server, it drops back to catching up from the last event it was sent and sends `caughtUp` again once it
   * reaches the end. Every event is sent once, in log order, because both phases read the same log from the same
   * cursor; `fellBehind` is not sent, as the server does not send it to clients of this protocol level.
   * Filtered `$all` subscriptions also send a checkpoint every `interval` considered events and when catch-up ends.
   */
  private async runSubscription(
    writer: CallWriter,
    source: SubscriptionSource,
    next: number,
    structuredIds: boolean,
    predicate?: EventPredicate,
    checkpoints?: { interval: number; last?: number },
  ): Promise<void> {
    if (!(await writer.write(new ReadResp().setConfirmation(new ReadResp.SubscriptionConfirmation().setSubscriptionId(randomUUID()))))) return;
    let live = false;
    let considered = 0;
    let consideredSinceCatchUp = 0;
    let lastCheckpointSent: number | undefined;
    const sendCheckpoint = async (position: number): Promise<boolean> => {
      if (position === lastCheckpointSent) return true; // the server does not repeat a checkpoint
      lastCheckpointSent = position;
      return writer.write(new ReadResp().setCheckpoint(new ReadResp.Checkpoint().setCommitPosition(String(position)).setPreparePosition(String(position))));
    };

    while (!writer.done && !this.closed) {
      const event = source.at(next);
      if (event) {
        if (live && source.length() - next > LIVE_BUFFER_SIZE) {
          live = false; // fell behind: back to catch-up from `next`
          consideredSinceCatchUp = 0;
        }
        next += 1;
        considered += 1;
        consideredSinceCatchUp += 1;
        if ((!predicate || predicate(event)) && !(await writer.write(readEventResponse(event, structuredIds)))) return;
        if (checkpoints) {
          checkpoints.last = event.position;
          if (considered >= checkpoints.interval) {
            considered = 0;
            if (!(await sendCheckpoint(event.position))) return;
          }
        }
        continue;
      }
      if (!live) {
        if (checkpoints?.last !== undefined && consideredSinceCatchUp > 0 && !(await sendCheckpoint(checkpoints.last))) return;
        if (!(await writer.write(new ReadResp().setCaughtUp(new ReadResp.CaughtUp())))) return;
        live = true;
      }
      await writer.until(this.log.nextAppend());
    }
  }
}

export async function startKurrentProtocolServer(options: { port?: number } = {}): Promise<KurrentProtocolServer> {
  let boundPort = 0;
  const protocol = new ProtocolServer(() => boundPort);
  const server = new grpc.Server();
  server.addService(StreamsService, protocol.streams);
  server.addService(ServerFeaturesService, protocol.serverFeatures);
  server.addService(GossipService, protocol.gossip);

  boundPort = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`127.0.0.1:${options.port ?? 0}`, grpc.ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port)));
  });

  let closing: Promise<void> | undefined;
  return {
    url: `esdb://127.0.0.1:${boundPort}?tls=false`,
    port: boundPort,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        // Calls a client keeps open (subscriptions, its cached BatchAppend stream) would hold a graceful shutdown
        // forever: cancel them, as a stopping node drops its connections.
        if (protocol.shutdown()) {
          server.forceShutdown();
          resolve();
          return;
        }
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 200);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      return closing;
    },
  };
}
