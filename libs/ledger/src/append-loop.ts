/**
 * The write path's append loop: read the streams a write's commands go to, decide each command
 * against its stream, append with the versions read (deciding again on a concurrent change), bring
 * the read models up to the new position, and keep this process's copies of the streams.
 */
import { decide, evolve, CommandIdReusedError, type MemoryCommand, type MemoryEvent, type Outcome, replay, type RestatementDecision, type StreamEvent, type StreamState } from '@factledger/domain';
import type { PendingStream, PlannedFrame } from '@factledger/projections';
import { type AppendContext, type AppendResult, type NewEvent, type RecordedEvent, type StreamAppend, tracedAppend } from '@factledger/store';
import { currentActor } from './actor';
import { bound, type Meta, refuseReusedCommandId } from './command-id';
import { decideAgainOnConflict } from './decide-again';
import type { FrameCache } from './frame-cache';
import type { LedgerDeps } from './ledger-deps';
import type { CachedStream, StreamCache } from './stream-cache';
import type { PartDecision, WriteResult } from './views';

export interface WriteManyOptions extends Meta {
  /** Appends of the caller's own, given each write's outcome; they land in the same append. */
  attach?: (results: OpResult[], batch: string | null) => StreamAppend[];
  /** The label for retirements by restatement when `batch` is not given (an ingest: `resolution:<messageId>`). */
  restatementBatch?: string;
  /**
   * What the command id is bound to when the ops are derived from state that a retry may find
   * changed (an ingest: a hash of its message, commandFingerprint). Default: the ops' and labels' own.
   */
  fingerprint?: string;
}

export interface ManyWriteResult {
  /** Global position of the last event written; pass it as `minPosition` to read your own writes. */
  position: number;
  replayed: boolean;
  /** One per op, in order. */
  results: OpResult[];
  /** The batch label the write carried: the caller's, or the one given to its restatements' retirements (null when none). */
  batch: string | null;
}

/** What one op did; a prose statement also says what it restated. */
export type OpResult = { outcome: Outcome; memoryId: string; restated?: RestatementDecision[]; replacedParts?: PartDecision[] };

export type Planned = { streamId: string; command: MemoryCommand };

/** An op planned: its own command first, then those it brings along (the retirements of what a statement restates). */
export type PlannedOp = { planned: Planned[]; restated?: RestatementDecision[]; replacedParts?: PartDecision[]; frame?: PlannedFrame };

/** The kinds of write a command id can name (commandFingerprint). */
export type LedgerOpKind = 'assert' | 'retract' | 'quarantine' | 'retype' | 'restore' | 'unconfirm' | 'confirm';

/** The batch label of the retirements a prose assert's restatements make, when the write has none: `restatement:<memoryId>`. */
export const RESTATEMENT_BATCH = 'restatement:';

/**
 * The batch a write carries: the caller's; else, when an op brings commands along (the
 * retirements and hidden parts of what a statement restates), a label of their own to be rolled
 * back by (`fallback`, or `restatement:<memoryId>` of that op's new memory); else none.
 */
export function batchOf(given: string | undefined, ops: readonly PlannedOp[], fallback?: string): string | undefined {
  if (given) return given;
  const restating = ops.find((p) => p.planned.length > 1);
  return restating ? (fallback ?? `${RESTATEMENT_BATCH}${restating.planned[0]!.command.memoryId}`) : undefined;
}

export function toStreamEvent(e: RecordedEvent): StreamEvent {
  return { eventId: e.eventId, batch: e.batch, event: { type: e.type, data: e.data } as MemoryEvent };
}

export class AppendLoop {
  constructor(
    private readonly deps: LedgerDeps,
    readonly streams: StreamCache,
    private readonly frames: FrameCache,
    private readonly newId: () => string,
  ) {}

  /** One write of `kind` (its command id bound to it and its input, `meta`), planned as `op`. */
  async single(tenant: string, kind: LedgerOpKind, meta: Meta, op: PlannedOp): Promise<WriteResult> {
    const r = await this.run(tenant, { ...bound(kind, meta), batch: batchOf(meta.batch, [op]) }, [op]);
    return { ...r.results[0]!, position: r.position, replayed: r.replayed };
  }

  context(tenant: string, meta: Meta): AppendContext {
    return {
      tenant,
      commandId: meta.commandId ?? null,
      commandFingerprint: meta.commandId ? (meta.fingerprint ?? null) : null,
      causationId: meta.causationId ?? null,
      correlationId: meta.correlationId ?? null,
      batch: meta.batch ?? null,
      recordedAt: this.deps.clock.now(),
      actor: currentActor(),
    };
  }

  /** The events as they will be recorded, positions stood in for by -1, -2, … (see InlineProjection). */
  private pending(context: AppendContext, streamId: string, version: number, events: NewEvent[], offset: number): RecordedEvent[] {
    return events.map((e, i) => ({
      globalPosition: -(offset + i + 1),
      logPosition: { commit: '0', prepare: -(offset + i + 1) },
      tenant: context.tenant,
      streamId,
      streamVersion: version + 1 + i,
      eventId: e.eventId,
      type: e.type,
      data: e.data,
      commandId: context.commandId,
      causationId: context.causationId,
      correlationId: context.correlationId,
      batch: context.batch,
      recordedAt: context.recordedAt,
      actor: context.actor ?? null,
    }));
  }

  toNew(e: MemoryEvent): NewEvent {
    return { eventId: this.newId(), type: e.type, data: e.data };
  }

  /**
   * The stream a command is decided on. First attempt: the copy this process keeps, if any; a
   * stream this process has no copy of and that only takes asserts is assumed new without a
   * read (a new key, or prose, whose stream id is the text's hash). Both are guesses that the
   * append's expected version checks: a wrong one costs a refused append (refused before any
   * event is written), which brings the stream back as it stands (fl_append), so the retry
   * decides on it without a read; a retry without it reads.
   */
  private async streamOf(tenant: string, streamId: string, planned: Planned[], guess: boolean, refused: Map<string, CachedStream>): Promise<CachedStream> {
    if (guess) {
      const cached = this.streams.take(tenant, streamId);
      if (cached) return cached;
      const mine = planned.filter((p) => p.streamId === streamId);
      if (mine.every((p) => p.command.kind === 'AssertMemory')) return { version: -1, events: [] };
    }
    // The stream a refused append brought back is as good as a read made at that moment.
    const current = refused.get(streamId);
    refused.delete(streamId);
    return current ?? this.deps.store.readStream(tenant, streamId);
  }

  /**
   * Puts the streams back after a successful append (or when nothing was appended), the written
   * ones with their new events at their real positions and the state already folded over them.
   */
  private remember(
    tenant: string,
    byStream: Map<string, { read: CachedStream; state: StreamState; events: NewEvent[] }>,
    parts: PendingStream[],
    result: AppendResult | null,
    rowsAfter?: unknown[],
  ): void {
    const pending = parts.flatMap((p) => p.pending);
    if (result && (result.duplicate || result.positions.length !== pending.length)) return;
    const rows = new Map(parts.map((p, i) => [p.pending[0]?.streamId ?? '', rowsAfter?.[i]]));
    const written = new Map<string, RecordedEvent[]>();
    pending.forEach((e, i) => {
      const position = result!.positions[i]!;
      const list = written.get(e.streamId) ?? [];
      list.push({ ...e, globalPosition: position, logPosition: { commit: '0', prepare: position } });
      written.set(e.streamId, list);
    });
    for (const [id, s] of byStream) {
      const mine = written.get(id) ?? [];
      const version = mine.length ? (result!.streamVersions[id] ?? s.read.version + mine.length) : s.read.version;
      // A stream that does not exist (or was only guessed new) and got nothing: nothing to keep.
      if (!mine.length && s.read.version < 0) continue;
      this.streams.put(tenant, id, { version, events: mine.length ? [...s.read.events, ...mine] : s.read.events, state: s.state, rows: mine.length ? rows.get(id) : s.read.rows });
    }
  }

  /**
   * Read, decide, append with the versions read; on a concurrent change to one of the streams,
   * decide again against the new state. A hand-written loop rather than a retry library: the
   * retry is part of the decision (re-read, re-decide), not a blind repeat of a call. Commands
   * on the same stream are decided in order, each against the state the previous one left.
   */
  async run(tenant: string, meta: Meta, ops: PlannedOp[], attach?: WriteManyOptions['attach']): Promise<ManyWriteResult> {
    const planned = ops.flatMap((op) => op.planned);
    // Where each op's own command stands among the planned commands.
    const first: number[] = [];
    for (let i = 0, at = 0; i < ops.length; at += ops[i]!.planned.length, i++) first.push(at);
    const streamIds = [...new Set(planned.map((p) => p.streamId))];
    const refused = new Map<string, CachedStream>();
    return decideAgainOnConflict(
      async (attempt) => {
        const read = await Promise.all(streamIds.map((id) => this.streamOf(tenant, id, planned, attempt === 0, refused)));
        const byStream = new Map(streamIds.map((id, i) => [id, { read: read[i]!, state: read[i]!.state ?? replay(read[i]!.events.map(toStreamEvent)), events: [] as NewEvent[] }]));
        const decided = planned.map(({ streamId, command }) => {
          const s = byStream.get(streamId)!;
          const decision = decide(command, s.state);
          for (const event of decision.events) {
            const e = this.toNew(event);
            s.events.push(e);
            s.state = evolve(s.state, { eventId: e.eventId, batch: meta.batch ?? null, event });
          }
          return { outcome: decision.outcome, memoryId: decision.memoryId };
        });
        // One result an op: its own command's, with what it restated.
        const results: OpResult[] = ops.map((op, i) => ({
          ...decided[first[i]!]!,
          ...(op.restated ? { restated: op.restated } : {}),
          ...(op.replacedParts ? { replacedParts: op.replacedParts } : {}),
        }));
        const appends: StreamAppend[] = [...byStream.entries()]
          .filter(([, s]) => s.events.length > 0)
          .map(([streamId, s]) => ({ streamId, expectedVersion: s.read.version < 0 ? 'no-stream' : s.read.version, events: s.events }));
        appends.push(...(attach?.(results, meta.batch ?? null) ?? []));
        if (appends.length === 0) {
          // Nothing to append, so no claim: the id must still not name another command.
          if (meta.commandId && meta.fingerprint) {
            const claim = await this.deps.store.commandClaim(tenant, meta.commandId);
            if (claim?.fingerprint && claim.fingerprint !== meta.fingerprint) throw new CommandIdReusedError(meta.commandId);
          }
          this.remember(tenant, byStream, [], null);
          const last = Math.max(0, ...read.map((r) => r.events[r.events.length - 1]?.globalPosition ?? 0));
          return { position: last, replayed: false, results, batch: meta.batch ?? null };
        }
        const context = this.context(tenant, meta);
        // The read models take the new events in the same transaction (one round trip, one
        // commit) where the store can run that; the runner is the fallback when it cannot, or
        // when that could not be done.
        let offset = 0;
        const parts = appends.map((a) => {
          const known = byStream.get(a.streamId)?.read;
          const pending = this.pending(context, a.streamId, known?.version ?? -1, a.events, offset);
          offset += a.events.length;
          return { stream: known?.events ?? [], pending, rows: known?.rows };
        });
        const frames = ops.flatMap((op) => (op.frame ? [op.frame] : []));
        const inline = this.deps.store.capabilities.inlineProjection ? this.deps.inline?.inline(parts, frames) : undefined;
        const followUp = inline?.followUp ?? undefined;
        const result = await tracedAppend(this.deps.store, context, appends, followUp);
        refuseReusedCommandId(context, result);
        this.remember(tenant, byStream, parts, result, inline?.rowsAfter(result.positions));
        if (followUp && inline) {
          const after = inline.framesAfter(result.positions);
          frames.forEach(({ guard }, i) => {
            if (guard.stem !== null && after[i]) this.frames.put(tenant, guard.stem, after[i]!);
          });
        }
        if (!(followUp && this.deps.inline?.settled(result.followUp))) await this.deps.runner.catchUp();
        return { position: result.position, replayed: result.duplicate, results, batch: meta.batch ?? null };
      },
      (conflict) => {
        if (conflict.current) refused.set(conflict.streamId, conflict.current);
      },
    );
  }
}
