/**
 * The write path's planning: what each write asks of which stream. A prose statement is aligned
 * with the memories it may restate (frame alignment) and the statements inside earlier memories it
 * changes (turn parts); a lifecycle command finds its memory's stream; premises are resolved.
 */
import {
  agentTurn,
  changedParts,
  changingParts,
  factStreamId,
  frameStatement,
  frameStem,
  InvalidInputError,
  languageOf,
  type MemoryCommand,
  planRestatement,
  proseStreamId,
  type RestatementPlan,
} from '@factledger/domain';
import { type MemoryRow, type PlannedFrame, RESTATING_LIMIT } from '@factledger/projections';
import type { z } from 'zod';
import type { Planned, PlannedOp } from './append-loop';
import { MAX_CONFLICT_RETRIES } from './decide-again';
import type { FrameCache } from './frame-cache';
import type { LedgerDeps } from './ledger-deps';
import type { assertSchema, retractSchema } from './ledger.schemas';
import type { PartDecision } from './views';

/**
 * How a write's prose statements find what they may restate: `known`, the memories a refused
 * append brought back (by frameKey); else the FrameCache's copy; else, when `guess` (a write of
 * one op), nothing (a new subject and verb, checked by the guard like a new stream's version);
 * else the look-up.
 */
export type FramePlanning = { known: Map<string, MemoryRow[]>; guess: boolean };

/** A look-up's identity within a write: its subject and verb, or (none found) its text. */
const frameKey = (p: { text: string; stem: string | null }): string => (p.stem === null ? `text\u0000${p.text}` : `stem\u0000${p.stem}`);

export class WritePlanner {
  private readonly proseTurns = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: LedgerDeps,
    private readonly frames: FrameCache,
    /** A memory's row in this tenant (UnknownMemoryError, MemoryErasedError when none): LedgerReads.locate. */
    private readonly locate: (tenant: string, memoryId: string) => Promise<MemoryRow>,
  ) {}

  async planRetract(tenant: string, r: z.output<typeof retractSchema>): Promise<PlannedOp> {
    const streamId = r.memoryId ? (await this.locate(tenant, r.memoryId)).streamId : factStreamId({ subject: r.subject!, relation: r.relation!, scope: r.scope ?? {} });
    const command: MemoryCommand = {
      kind: 'RetractMemory',
      memoryId: r.memoryId ?? null,
      value: r.memoryId ? null : r.value!,
      validFrom: r.validFrom ?? this.deps.clock.now(),
      reason: r.reason ?? null,
    };
    return { planned: [{ streamId, command }] };
  }

  async planLifecycle(tenant: string, command: MemoryCommand & { memoryId: string }): Promise<PlannedOp> {
    return { planned: [{ streamId: (await this.locate(tenant, command.memoryId)).streamId, command }] };
  }

  /**
   * An assert planned: a triple under its key; prose under its text's own stream, unless it
   * restates earlier memories with another value (frame alignment, @factledger/domain
   * restatement.ts): then under the frame's key (or the restated fact's own), with the
   * retirements of what it replaces in the same append.
   */
  async planAssert(tenant: string, a: z.output<typeof assertSchema>, frames: FramePlanning, memoryIds: () => string): Promise<PlannedOp> {
    const isFact = a.subject !== undefined;
    const text = a.text ?? `${a.subject} ${a.relation} ${a.value}`;
    const memoryId = memoryIds();
    // When it was said (a message's time, a document's date), and from when it holds: from then,
    // unless the statement said when it began. Without a said time, a statement of a start is taken
    // as said then (a document of that date), never later than now: what holds from next year was
    // said today.
    const now = this.deps.clock.now();
    const saidAt = a.saidAt ?? (a.validFrom && a.validFrom < now ? a.validFrom : now);
    const validFrom = a.validFrom ?? saidAt;
    const { plan, frame } = isFact ? { plan: null, frame: undefined } : await this.restatementOf(tenant, { memoryId, text, speaker: a.speaker, authority: a.authority, validFrom, saidAt }, frames);
    const key = isFact ? { subject: a.subject!, relation: a.relation!, scope: a.scope ?? {}, value: a.value!, cardinality: a.cardinality } : plan?.key;
    const streamId = key ? factStreamId(key) : proseStreamId(text);
    const command: MemoryCommand = {
      kind: 'AssertMemory',
      memoryId,
      memoryKind: key ? 'fact' : 'prose',
      subject: key?.subject ?? null,
      relation: key?.relation ?? null,
      scope: key?.scope ?? {},
      value: key?.value ?? null,
      text,
      type: a.type,
      speaker: a.speaker,
      source: a.source ?? null,
      authority: a.authority,
      cardinality: key?.cardinality,
      core: a.core,
      validFrom,
      validTo: a.validTo ?? plan?.validTo ?? null,
      mode: a.mode,
      saidAt,
      startStated: a.validFrom !== undefined,
      ...(a.dependsOn?.length ? { dependsOn: await this.premisesOf(tenant, a.dependsOn, now) } : {}),
    };
    const retired = new Set(plan?.retire.map((r) => r.memoryId) ?? []);
    const parts = isFact ? null : await this.partsChangedBy(tenant, { memoryId, text, speaker: a.speaker, validFrom, saidAt }, retired);
    const retirements = (plan?.retire ?? []).map((r) => ({
      streamId: plan!.streams.get(r.memoryId)!,
      command: { kind: 'RetractMemory', memoryId: r.memoryId, value: null, validFrom: r.validFrom, reason: r.reason, by: memoryId } satisfies MemoryCommand,
    }));
    return {
      planned: [{ streamId, command }, ...retirements, ...(parts?.planned ?? [])],
      ...(plan ? { restated: plan.decisions } : {}),
      ...(parts ? { replacedParts: parts.decisions } : {}),
      ...(frame ? { frame } : {}),
    };
  }

  /**
   * The memories a statement hangs on, each given by id (of this tenant) or by key (its current
   * version now); one that names nothing is a 400 naming it, and nothing is written.
   */
  private async premisesOf(tenant: string, given: NonNullable<z.output<typeof assertSchema>['dependsOn']>, now: Date): Promise<string[]> {
    const ids: string[] = [];
    const issues: { path: string; message: string }[] = [];
    for (const [i, p] of given.entries()) {
      if (typeof p === 'string') {
        if (await this.deps.reader.memory(tenant, p)) ids.push(p);
        else issues.push({ path: `dependsOn.${i}`, message: `no memory ${p} in this tenant` });
        continue;
      }
      const [current] = await this.deps.reader.valuesAt(tenant, factStreamId({ subject: p.subject, relation: p.relation, scope: p.scope ?? {} }), { validAt: now, knownAt: now });
      if (current) ids.push(current.memoryId);
      else issues.push({ path: `dependsOn.${i}`, message: `no current value of ${p.subject} / ${p.relation} in this tenant` });
    }
    if (issues.length) throw new InvalidInputError(issues);
    return ids;
  }

  /**
   * The statements inside earlier prose memories of the same speaker that a new text changes
   * (@factledger/domain turn-parts.ts), each memory's as one SupersedeParts command on its stream;
   * null when restatement is off, or when the text says no value holds now (then nothing is read).
   * A turn said after the new statement (an imported chat sent out of order) keeps its parts.
   */
  private async partsChangedBy(
    tenant: string,
    next: { memoryId: string; text: string; speaker: string; validFrom: Date; saidAt: Date },
    skip: ReadonlySet<string>,
  ): Promise<{ planned: Planned[]; decisions: PartDecision[] } | null> {
    if (this.deps.restatement === false || agentTurn(next.text, next.speaker)) return null;
    const language = languageOf(next.text);
    const changing = changingParts(next.text, language);
    if (changing.length === 0) return null;
    const now = this.deps.clock.now();
    const earlier = (await this.deps.reader.partsResembling(tenant, { speaker: next.speaker, groups: changing.map((p) => [...p.topic]), now })).filter(
      (m) => !skip.has(m.memoryId) && m.saidAt.getTime() <= next.saidAt.getTime(),
    );
    const changes = changedParts(changing, earlier, language);
    if (changes.length === 0) return null;
    const byMemory = new Map<string, typeof changes>();
    for (const c of changes) byMemory.set(c.memoryId, [...(byMemory.get(c.memoryId) ?? []), c]);
    const planned: Planned[] = [];
    const decisions: PartDecision[] = [];
    for (const [memoryId, cs] of byMemory) {
      const spans = [...new Map(cs.map((c) => [`${c.part.start}:${c.part.end}`, c.part])).values()];
      const first = cs[0]!;
      planned.push({
        streamId: earlier.find((m) => m.memoryId === memoryId)!.streamId,
        command: { kind: 'SupersedeParts', memoryId, parts: spans.map((p) => ({ start: p.start, end: p.end })), by: next.memoryId, validFrom: next.validFrom, at: now, rule: first.rule },
      });
      decisions.push({ memoryId, parts: spans, kind: first.kind, earlierValue: first.oldValue, nextValue: first.newValue, rule: first.rule });
    }
    return { planned, decisions };
  }

  /**
   * What a prose statement restates (plan: null when restatement is off or nothing is found to
   * align with), and, where the store checks it (an inline projection), the guard that the
   * memories the plan was made on are still those when it lands.
   */
  private async restatementOf(
    tenant: string,
    next: { memoryId: string; text: string; speaker: string; authority: number; validFrom: Date; saidAt: Date },
    frames: FramePlanning,
  ): Promise<{ plan: (RestatementPlan & { streams: Map<string, string> }) | null; frame?: PlannedFrame }> {
    if (this.deps.restatement === false) return { plan: null };
    const language = languageOf(next.text);
    const framed = frameStatement(next.text, language);
    if (!framed || framed.predicate < 0) return { plan: null };
    const now = this.deps.clock.now();
    const question = { text: next.text, stem: frameStem(framed), now };
    const guarded = this.deps.store.capabilities.inlineProjection && this.deps.inline !== undefined;
    const earlier = (guarded ? this.knownFrame(tenant, question, frames) : undefined) ?? (await this.deps.reader.restating(tenant, question));
    const frame: PlannedFrame | undefined = guarded
      ? { guard: { tenant, text: question.text, stem: question.stem, now: now.toISOString(), limit: RESTATING_LIMIT, expect: earlier.map((e) => e.memoryId) }, rows: earlier }
      : undefined;
    if (earlier.length === 0) return { plan: null, frame };
    const plan = planRestatement(
      next,
      earlier.map((e) => ({
        memoryId: e.memoryId,
        text: e.text,
        speaker: e.speaker,
        authority: e.authority,
        validFrom: new Date(e.validFrom),
        saidAt: new Date(e.saidAt),
        key: e.kind === 'fact' && e.subject !== null && e.relation !== null ? { subject: e.subject, relation: e.relation, scope: e.scope } : null,
      })),
      language,
    );
    return { plan: plan.decisions.length ? { ...plan, streams: new Map(earlier.map((e) => [e.memoryId, e.streamId])) } : null, frame };
  }

  /**
   * The memories a statement may restate without the look-up, when known (FramePlanning; of a
   * copy, those still valid at `now`). Undefined: look them up.
   */
  private knownFrame(tenant: string, question: { text: string; stem: string | null; now: Date }, frames: FramePlanning): MemoryRow[] | undefined {
    const known = frames.known.get(frameKey(question));
    if (known) return known;
    if (question.stem === null) return undefined;
    const now = question.now.getTime();
    const copy = this.frames.get(tenant, question.stem)?.filter((m) => m.validTo === null || m.validTo > now);
    return copy ?? (frames.guess ? [] : undefined);
  }

  /**
   * Plans and runs a write; when its append was refused because the memories a statement's
   * restatement was planned on changed (the frame guard, fl_apply_fact_changes), plans it again
   * on the memories the refusal brought back, at most MAX_CONFLICT_RETRIES more times.
   */
  planAgainOnChangedFrames<T>(tenant: string, prose: boolean, go: (known: Map<string, MemoryRow[]>) => Promise<T>): Promise<T> {
    const attempts = async (): Promise<T> => {
      const known = new Map<string, MemoryRow[]>();
      for (let n = 0; ; n++) {
        try {
          return await go(known);
        } catch (error) {
          const changed = this.deps.inline?.changedFrames(error);
          if (!changed || n >= MAX_CONFLICT_RETRIES) throw error;
          for (const { guard, rows } of changed) {
            known.set(frameKey(guard), rows);
            if (guard.stem !== null) this.frames.put(tenant, guard.stem, rows);
          }
        }
      }
    };
    return prose ? this.inProseTurn(tenant, attempts) : attempts();
  }

  /**
   * A tenant's prose writes, one at a time in this process. Each lands a new memory in the frames
   * its statements belong to, which every other prose write planned on them at the same moment
   * must then plan again: eight clients ingesting like messages at once refused a third of them
   * after MAX_CONFLICT_RETRIES (found by the reliability suite). In turn, only writes from other
   * processes can still change a frame under a plan, and the retries above take those.
   * Structured facts and other tenants do not wait.
   */
  private inProseTurn<T>(tenant: string, work: () => Promise<T>): Promise<T> {
    const mine = (this.proseTurns.get(tenant) ?? Promise.resolve()).then(work);
    const done = mine.then(
      () => undefined,
      () => undefined,
    );
    this.proseTurns.set(tenant, done);
    void done.then(() => {
      if (this.proseTurns.get(tenant) === done) this.proseTurns.delete(tenant);
    });
    return mine;
  }
}
