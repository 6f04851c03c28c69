/**
 * The write path's commands: each validates its input, is planned (write-planner.ts) and runs
 * through the append loop (append-loop.ts). A ledger is its reads and these writes (ledger.ts).
 */
import { randomUUID } from 'node:crypto';
import { InvalidInputError, planRollback, replay, type RollbackItem, UnknownBatchError } from '@factledger/domain';
import { tracedAppend } from '@factledger/store';
import type { z } from 'zod';
import { AppendLoop, batchOf, type ManyWriteResult, type PlannedOp, toStreamEvent, type WriteManyOptions } from './append-loop';
import { bound, commandFingerprint, memoryIdsOf, type Meta, refuseReusedCommandId } from './command-id';
import { decideAgainOnConflict } from './decide-again';
import { FrameCache } from './frame-cache';
import type { LedgerDeps } from './ledger-deps';
import { LedgerReads } from './ledger-reads';
import { assertSchema, confirmSchema, parse, quarantineSchema, restoreSchema, retractSchema, retypeSchema, rollbackSchema, tenantSchema, writeManyMetaSchema } from './ledger.schemas';
import { StreamCache } from './stream-cache';
import type { RollbackResult, WriteResult } from './views';
import { type FramePlanning, WritePlanner } from './write-planner';

/** One write of a `writeMany`, with the input its single-write method takes. */
export type LedgerOp =
  | { assert: z.input<typeof assertSchema> }
  | { retract: z.input<typeof retractSchema> }
  | { quarantine: z.input<typeof quarantineSchema> }
  | { retype: z.input<typeof retypeSchema> }
  | { restore: z.input<typeof restoreSchema> };

/** A LedgerOp with its input validated. */
type ParsedOp =
  | { assert: z.output<typeof assertSchema> }
  | { retract: z.output<typeof retractSchema> }
  | { quarantine: z.output<typeof quarantineSchema> }
  | { retype: z.output<typeof retypeSchema> }
  | { restore: z.output<typeof restoreSchema> };

const OWN_META = ['commandId', 'correlationId', 'causationId', 'batch'] as const;

/** An op's input, refused when it sets what belongs to the whole write (its metadata). */
function withoutOwnMeta<T extends Meta>(input: T): T {
  const set = OWN_META.filter((k) => input[k] !== undefined);
  if (set.length) throw new InvalidInputError(set.map((k) => ({ path: k, message: 'set it on the whole write, not on one op' })));
  return input;
}

/** Issues of a writeMany's op `i`, named by its index (`ops.<i>.<field>`). */
function opIssues(i: number, issues: { path: string; message: string }[]): { path: string; message: string }[] {
  return issues.map((x) => ({ path: `ops.${i}.${x.path}`.replace(/\.$/, ''), message: x.message }));
}

/** Each op of a writeMany validated, once for all its attempts; an invalid one is named by its index. */
function parseOps(ops: LedgerOp[]): ParsedOp[] {
  return ops.map((op, i) => {
    try {
      if ('assert' in op) return { assert: withoutOwnMeta(parse(assertSchema, op.assert)) };
      if ('retract' in op) return { retract: withoutOwnMeta(parse(retractSchema, op.retract)) };
      if ('quarantine' in op) return { quarantine: withoutOwnMeta(parse(quarantineSchema, op.quarantine)) };
      if ('retype' in op) return { retype: withoutOwnMeta(parse(retypeSchema, op.retype)) };
      return { restore: withoutOwnMeta(parse(restoreSchema, op.restore)) };
    } catch (error) {
      if (error instanceof InvalidInputError) throw new InvalidInputError(opIssues(i, error.issues));
      throw error;
    }
  });
}

export class LedgerWrites extends LedgerReads {
  private readonly newId: () => string;
  private readonly loop: AppendLoop;
  private readonly planner: WritePlanner;

  constructor(deps: LedgerDeps) {
    super(deps);
    this.newId = deps.newId ?? randomUUID;
    const frames = deps.frames ?? new FrameCache();
    this.loop = new AppendLoop(deps, deps.streams ?? new StreamCache(), frames, this.newId);
    this.planner = new WritePlanner(deps, frames, (tenant, memoryId) => this.locate(tenant, memoryId));
  }

  async assert(tenant: string, input: z.input<typeof assertSchema>): Promise<WriteResult> {
    const t = parse(tenantSchema, tenant);
    const a = parse(assertSchema, input);
    return this.planner.planAgainOnChangedFrames(t, a.subject === undefined, async (known) =>
      this.loop.single(t, 'assert', a, await this.planner.planAssert(t, a, { known, guess: true }, memoryIdsOf(t, a.commandId, this.newId))),
    );
  }

  async retract(tenant: string, input: z.input<typeof retractSchema>): Promise<WriteResult> {
    const t = parse(tenantSchema, tenant);
    const r = parse(retractSchema, input);
    return this.loop.single(t, 'retract', r, await this.planner.planRetract(t, r));
  }

  async quarantine(tenant: string, input: z.input<typeof quarantineSchema>): Promise<WriteResult> {
    const t = parse(tenantSchema, tenant);
    const q = parse(quarantineSchema, input);
    return this.loop.single(t, 'quarantine', q, await this.planner.planLifecycle(t, { kind: 'QuarantineMemory', memoryId: q.memoryId, reason: q.reason ?? null }));
  }

  async restore(tenant: string, input: z.input<typeof restoreSchema>): Promise<WriteResult> {
    const t = parse(tenantSchema, tenant);
    const r = parse(restoreSchema, input);
    return this.loop.single(t, 'restore', r, await this.planner.planLifecycle(t, { kind: 'RestoreMemory', memoryId: r.memoryId, reason: r.reason ?? null }));
  }

  /**
   * A memory marked unconfirmed (what it hung on changed) holds after all, as someone who knows
   * says: the mark is cleared (MemoryConfirmed), the memory shown again without it. Unchanged for
   * a memory with no mark.
   */
  async confirm(tenant: string, input: z.input<typeof confirmSchema>): Promise<WriteResult> {
    const t = parse(tenantSchema, tenant);
    const c = parse(confirmSchema, input);
    return this.loop.single(t, 'confirm', c, await this.planner.planLifecycle(t, { kind: 'ConfirmMemory', memoryId: c.memoryId, reason: c.reason ?? null }));
  }

  /**
   * The cascade's door (cascade.saga.ts): a memory this one hangs on changed, so it is no longer
   * confirmed. Idempotent per (memory, cause) through its command id; the batch is the cause's, so
   * that rolling the cause back rolls this back too.
   */
  async markUnconfirmed(
    tenant: string,
    mark: { memoryId: string; premise: string; by: string | null; event: string; position: number; depth: number },
    meta: { causationId: string; batch: string | null },
  ): Promise<WriteResult> {
    const t = parse(tenantSchema, tenant);
    const commandId = `unconfirm:${mark.memoryId}:${mark.position}`;
    const planned = await this.planner.planLifecycle(t, { kind: 'MarkUnconfirmed', ...mark });
    return this.loop.single(t, 'unconfirm', { ...mark, commandId, causationId: meta.causationId, ...(meta.batch ? { batch: meta.batch } : {}) }, planned);
  }

  async retype(tenant: string, input: z.input<typeof retypeSchema>): Promise<WriteResult> {
    const t = parse(tenantSchema, tenant);
    const r = parse(retypeSchema, input);
    return this.loop.single(t, 'retype', r, await this.planner.planLifecycle(t, { kind: 'RetypeMemory', memoryId: r.memoryId, type: r.type, reason: r.reason ?? null }));
  }

  /**
   * Several writes decided together and appended atomically, in one round trip: all land or
   * none do, under one command id and batch label. `attach` adds streams of the caller's own
   * (an ingest record) that see each write's outcome. Each op takes the input of its
   * single-write method, without the write's own metadata (that belongs to the whole call).
   */
  async writeMany(tenant: string, ops: LedgerOp[], options: WriteManyOptions = {}): Promise<ManyWriteResult> {
    const t = parse(tenantSchema, tenant);
    const meta = parse(writeManyMetaSchema, { commandId: options.commandId, correlationId: options.correlationId, causationId: options.causationId, batch: options.batch });
    const parsed = parseOps(ops);
    // Bound to the ops and labels as given (their plan can change between attempts), or to what the caller names.
    const fingerprint = meta.commandId ? (options.fingerprint ?? commandFingerprint('writeMany', { ops: parsed, batch: meta.batch, restatementBatch: options.restatementBatch })) : undefined;
    const prose = parsed.some((op) => 'assert' in op && op.assert.subject === undefined);
    return this.planner.planAgainOnChangedFrames(t, prose, async (known) => {
      const planned = await this.planOps(t, parsed, { known, guess: ops.length === 1 }, memoryIdsOf(t, meta.commandId, this.newId));
      return this.loop.run(t, { ...meta, fingerprint, batch: batchOf(meta.batch, planned, options.restatementBatch) }, planned, options.attach);
    });
  }

  /** Each op of a writeMany planned in order; one that cannot be is named by its index (`ops.<i>.<field>`). */
  private async planOps(t: string, ops: ParsedOp[], frames: FramePlanning, memoryIds: () => string): Promise<PlannedOp[]> {
    const planned: PlannedOp[] = [];
    for (const [i, op] of ops.entries()) {
      try {
        if ('assert' in op) planned.push(await this.planner.planAssert(t, op.assert, frames, memoryIds));
        else if ('retract' in op) planned.push(await this.planner.planRetract(t, op.retract));
        else if ('quarantine' in op) planned.push(await this.planner.planLifecycle(t, { kind: 'QuarantineMemory', memoryId: op.quarantine.memoryId, reason: op.quarantine.reason ?? null }));
        else if ('retype' in op) planned.push(await this.planner.planLifecycle(t, { kind: 'RetypeMemory', memoryId: op.retype.memoryId, type: op.retype.type, reason: op.retype.reason ?? null }));
        else planned.push(await this.planner.planLifecycle(t, { kind: 'RestoreMemory', memoryId: op.restore.memoryId, reason: op.restore.reason ?? null }));
      } catch (error) {
        if (error instanceof InvalidInputError) throw new InvalidInputError(opIssues(i, error.issues));
        throw error;
      }
    }
    return planned;
  }

  /** Undoes a batch's lifecycle changes across every stream they touched, in one append. */
  async rollback(tenant: string, input: z.input<typeof rollbackSchema>): Promise<RollbackResult> {
    const t = parse(tenantSchema, tenant);
    const r = parse(rollbackSchema, input);
    return decideAgainOnConflict(async () => {
      const labelled = await this.deps.store.readBatch(t, r.batch);
      if (labelled.length === 0) throw new UnknownBatchError(r.batch);
      const streams = [...new Set(labelled.map((e) => e.streamId))];
      const appends = [];
      const items: RollbackItem[] = [];
      for (const streamId of streams) {
        const stream = await this.deps.store.readStream(t, streamId);
        const plan = planRollback(replay(stream.events.map(toStreamEvent)), r.batch, this.deps.clock.now());
        items.push(...plan.items);
        if (plan.events.length) {
          appends.push({ streamId, expectedVersion: stream.version, events: plan.events.map((e) => this.loop.toNew(e)) });
        }
      }
      for (const a of appends) this.loop.streams.drop(t, a.streamId);
      let position: number;
      if (appends.length) {
        const context = this.loop.context(t, { ...bound('rollback', { commandId: r.commandId, batch: r.batch }), batch: `rollback:${r.batch}` });
        const result = await tracedAppend(this.deps.store, context, appends);
        refuseReusedCommandId(context, result);
        position = result.position;
      } else position = await this.deps.store.head();
      await this.deps.runner.catchUp();
      return { batch: r.batch, position, items };
    });
  }
}
