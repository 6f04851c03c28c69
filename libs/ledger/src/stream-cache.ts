/**
 * The streams this process wrote or read last, kept in memory with their versions, so the next
 * command on a hot key is decided without reading the stream back (one round trip fewer). It is
 * only ever a guess: every append still carries the expected version, so a stream changed by
 * another process answers with a version conflict, and the ledger then reads it and decides again.
 */
import type { StreamState } from '@factledger/domain';
import type { RecordedEvent } from '@factledger/store';

export interface CachedStream {
  version: number;
  events: RecordedEvent[];
  /** The decider's state folded from `events`, so the next command skips the replay too. */
  state?: StreamState;
  /** The inline projection's rows for `events` (opaque), so it skips its fold too. */
  rows?: unknown;
}

export class StreamCache {
  private readonly entries = new Map<string, CachedStream>();

  constructor(
    private readonly maxStreams = 10_000,
    /** Longer streams are not kept: the memory they hold outweighs a read. */
    private readonly maxEvents = 1_000,
  ) {}

  private key(tenant: string, streamId: string): string {
    return `${tenant}\u0000${streamId}`;
  }

  /**
   * Checks a stream out: the caller decides on it (the state is mutated as it goes) and puts it
   * back once its append succeeded, so two writers in this process never share one state.
   */
  take(tenant: string, streamId: string): CachedStream | undefined {
    const k = this.key(tenant, streamId);
    const hit = this.entries.get(k);
    this.entries.delete(k);
    return hit;
  }

  /** Least recently put goes first when the cache is full. */
  put(tenant: string, streamId: string, stream: CachedStream): void {
    const k = this.key(tenant, streamId);
    this.entries.delete(k);
    if (stream.events.length > this.maxEvents) return;
    this.entries.set(k, stream);
    if (this.entries.size > this.maxStreams) this.entries.delete(this.entries.keys().next().value!);
  }

  drop(tenant: string, streamId: string): void {
    this.entries.delete(this.key(tenant, streamId));
  }

  get size(): number {
    return this.entries.size;
  }
}
