/**
 * Recorded answers (R15): record an answer pinned to the memory versions it cited, read it back
 * with what became of each citation, list the answers waiting for review, review one. Reopening
 * is the re-review saga's (re-review.saga.ts), through `reopen` here.
 */
import { randomUUID } from 'node:crypto';
import { currentActor } from './actor';
import {
  CommandIdReusedError,
  type AnswerCommand,
  type AnswerEvent,
  type AnswerState,
  type Citation,
  type Clock,
  decideAnswer,
  evolveAnswer,
  initialAnswerState,
  UnknownAnswerError,
  UnknownMemoryError,
  MemoryErasedError,
} from '@factledger/domain';
import type { AnswerReader, AnswerRow, FactReader, ProjectionRunner } from '@factledger/projections';
import { type EventStore, tracedAppend } from '@factledger/store';
import { z } from 'zod';
import { decideAgainOnConflict } from './decide-again';
import { commandFingerprint } from './command-id';
import { parse } from './ledger.schemas';
import { tenantSchema } from './ledger.schemas';
import type { AnswerView, AnswerWriteResult } from './views';

export const recordAnswerSchema = z
  .object({
    answerId: z.string().trim().min(1).max(200).optional(),
    question: z.string().max(10_000).default(''),
    text: z.string().trim().min(1, 'the answer text is required').max(20_000),
    cites: z.array(z.string().min(1).max(200)).max(100).default([]),
    commandId: z.string().min(1).max(200).optional(),
  })
  .strict();

export const answerQuerySchema = z.object({ answerId: z.string().trim().min(1).max(200), minPosition: z.coerce.number().int().min(0).optional() }).strict();
export const reopenedQuerySchema = z.object({ minPosition: z.coerce.number().int().min(0).optional() }).strict();
export const citingQuerySchema = z.object({ memoryId: z.string().trim().min(1).max(200), minPosition: z.coerce.number().int().min(0).optional() }).strict();
export const reviewAnswerSchema = z.object({ answerId: z.string().trim().min(1).max(200), note: z.string().max(2000).optional(), commandId: z.string().min(1).max(200).optional() }).strict();

export const answerStreamId = (answerId: string): string => `answer-${answerId}`;

export class Answers {
  constructor(private readonly deps: { store: EventStore; runner: ProjectionRunner; facts: FactReader; answers: AnswerReader; clock: Clock; newId?: () => string }) {}

  async record(tenant: string, input: z.input<typeof recordAnswerSchema>): Promise<AnswerWriteResult> {
    const t = parse(tenantSchema, tenant);
    const a = parse(recordAnswerSchema, input);
    const citations: Citation[] = [];
    for (const memoryId of a.cites) {
      // A memory not in the read models yet (its write acknowledged a moment ago, projected by a
      // worker or on a log without inline projection) is looked for again once they reach the log's head.
      let m = await this.deps.facts.memory(t, memoryId);
      if (!m) {
        await this.deps.runner.awaitPosition(await this.deps.store.head(), 'facts');
        m = await this.deps.facts.memory(t, memoryId);
      }
      if (!m) {
        const erased = await this.deps.facts.erased(t, memoryId);
        throw erased ? new MemoryErasedError(memoryId, erased) : new UnknownMemoryError(memoryId);
      }
      citations.push({ memoryId, value: m.value, text: m.text, speaker: m.speaker });
    }
    const answerId = a.answerId ?? (this.deps.newId ?? randomUUID)();
    return this.execute(t, { kind: 'RecordAnswer', answerId, question: a.question, text: a.text, citations }, a.commandId ?? null, commandFingerprint('recordAnswer', a));
  }

  async review(tenant: string, input: z.input<typeof reviewAnswerSchema>): Promise<AnswerWriteResult> {
    const t = parse(tenantSchema, tenant);
    const r = parse(reviewAnswerSchema, input);
    return this.execute(t, { kind: 'ReviewAnswer', answerId: r.answerId, note: r.note ?? null }, r.commandId ?? null, commandFingerprint('reviewAnswer', r));
  }

  /** The saga's door: idempotent per (answer, causing event) through the command id. */
  reopen(tenant: string, command: Extract<AnswerCommand, { kind: 'ReopenAnswer' }>): Promise<AnswerWriteResult> {
    return this.execute(tenant, command, `reopen:${command.answerId}:${command.cause.position}`);
  }

  async answer(tenant: string, input: z.input<typeof answerQuerySchema>): Promise<AnswerView> {
    const t = parse(tenantSchema, tenant);
    const q = parse(answerQuerySchema, input);
    await this.deps.runner.awaitPosition(q.minPosition, 'answers');
    const row = await this.deps.answers.answer(t, q.answerId);
    if (!row) throw new UnknownAnswerError(q.answerId);
    const citations = [];
    for (const c of row.citations) {
      const m = await this.deps.facts.memory(t, c.memoryId);
      const erased = m ? null : await this.deps.facts.erased(t, c.memoryId);
      citations.push({ ...c, now: m ? { status: m.status, supersededBy: m.supersededBy } : erased ? { status: 'erased', supersededBy: null } : null });
    }
    return { ...row, citations };
  }

  async reopened(tenant: string, input: z.input<typeof reopenedQuerySchema> = {}): Promise<AnswerRow[]> {
    const t = parse(tenantSchema, tenant);
    const q = parse(reopenedQuerySchema, input);
    await this.deps.runner.awaitPosition(q.minPosition, 'answers');
    return this.deps.answers.reopened(t);
  }

  /** Which answers cited this memory version. */
  async citing(tenant: string, input: z.input<typeof citingQuerySchema>): Promise<AnswerRow[]> {
    const t = parse(tenantSchema, tenant);
    const q = parse(citingQuerySchema, input);
    await this.deps.runner.awaitPosition(q.minPosition, 'answers');
    return this.deps.answers.citing(t, q.memoryId);
  }

  /** Decides and appends; a command id names one command (`fingerprint`: a caller's id must not name another; the saga's ids have none). */
  private async execute(tenant: string, command: AnswerCommand, commandId: string | null, fingerprint: string | null = null): Promise<AnswerWriteResult> {
    const streamId = answerStreamId(command.answerId);
    const reused = (claimed: string | null | undefined): boolean => Boolean(commandId && fingerprint && claimed && claimed !== fingerprint);
    if (commandId && fingerprint && reused((await this.deps.store.commandClaim(tenant, commandId))?.fingerprint)) throw new CommandIdReusedError(commandId);
    return decideAgainOnConflict(async () => {
      const stream = await this.deps.store.readStream(tenant, streamId);
      // A retried command that landed before: its first answer, not a refusal of the second.
      const landed = commandId === null ? undefined : stream.events.filter((e) => e.commandId === commandId).at(-1);
      if (landed) return { answerId: command.answerId, position: landed.globalPosition, changed: false };
      const state = stream.events.reduce<AnswerState>((s, e) => evolveAnswer(s, { type: e.type, data: e.data } as AnswerEvent), initialAnswerState());
      const events = decideAnswer(command, state);
      if (events.length === 0) return { answerId: command.answerId, position: stream.events.at(-1)?.globalPosition ?? 0, changed: false };
      const result = await tracedAppend(
        this.deps.store,
        { tenant, commandId, commandFingerprint: fingerprint, causationId: null, correlationId: null, batch: null, recordedAt: this.deps.clock.now(), actor: currentActor() },
        [{ streamId, expectedVersion: stream.version < 0 ? 'no-stream' : stream.version, events: events.map((e) => ({ eventId: randomUUID(), type: e.type, data: e.data })) }],
      );
      if (result.duplicate && reused(result.commandFingerprint)) throw new CommandIdReusedError(commandId!);
      await this.deps.runner.catchUp();
      return { answerId: command.answerId, position: result.position, changed: !result.duplicate };
    });
  }
}
