/**
 * The ledger's commands and queries as @nestjs/cqrs messages. Each carries the tenant and the
 * raw input; validation happens once, in the Ledger, whichever door the input came through.
 */
import { Command, type IEvent, Query } from '@nestjs/cqrs';
import type { AnswerRow } from '@factledger/projections';
import { LlmNotConfiguredError } from '@factledger/llm';
import { parse, reviseAnswerSchema } from '@factledger/ledger';
import type { MemoryStatus } from '@factledger/domain';
import type { BatchView, BeliefDiffView, BeliefView, ErasureResult, IngestResult, AnswerView, AnswerWriteResult, ClaimVerdict, Revision, FactView, HistoryView, Ledger, LedgerHandle, MemoryView, RollbackResult, WriteResult } from '@factledger/ledger';
import type { RecallResult } from '@factledger/recall';

/**
 * A write for one tenant. The host owns authentication: it passes the tenant, and optionally the
 * id of whoever acts (a user, a service), which every event the command appends records as its actor.
 */
abstract class TenantCommand<R> extends Command<R> {
  constructor(
    readonly tenant: string,
    readonly input: unknown,
    readonly actor?: string,
  ) {
    super();
  }
}
abstract class TenantQuery<R> extends Query<R> {
  constructor(readonly tenant: string, readonly input: unknown) {
    super();
  }
}

export class AssertMemoryCommand extends TenantCommand<WriteResult> {}
export class RetractMemoryCommand extends TenantCommand<WriteResult> {}
export class QuarantineMemoryCommand extends TenantCommand<WriteResult> {}
export class RestoreMemoryCommand extends TenantCommand<WriteResult> {}
/** A memory marked unconfirmed holds after all (`Ledger.confirm`). */
export class ConfirmMemoryCommand extends TenantCommand<WriteResult> {}
export class RetypeMemoryCommand extends TenantCommand<WriteResult> {}
export class RollbackBatchCommand extends TenantCommand<RollbackResult> {}
export class RecordAnswerCommand extends TenantCommand<AnswerWriteResult> {}
export class ReviewAnswerCommand extends TenantCommand<AnswerWriteResult> {}
/** Erases a memory (`{memoryId}`), a subject's memories (`{subject}`) or the tenant's (`{all: true}`). */
export class EraseCommand extends TenantCommand<ErasureResult> {}

export class GetFactQuery extends TenantQuery<FactView> {}
export class GetSubjectQuery extends TenantQuery<Awaited<ReturnType<Ledger['subject']>>> {}
export class GetHistoryQuery extends TenantQuery<{ entries: HistoryView[] } & Awaited<ReturnType<Ledger['history']>>> {}
export class GetMemoryQuery extends TenantQuery<MemoryView> {}
/** What the ledger believed at `knownAt` (true at `validAt`), for the whole tenant or one `subject`. */
export class GetAuditQuery extends TenantQuery<BeliefView> {}
/** What changed in what the ledger believed between transaction times `from` and `to`. */
export class GetAuditDiffQuery extends TenantQuery<BeliefDiffView> {}
/** A batch's events and the memories they touched: input `{ batch }`. */
export class GetBatchQuery extends TenantQuery<BatchView> {}
export class GetMemoryHistoryQuery extends TenantQuery<Awaited<ReturnType<Ledger['memoryHistory']>>> {}
export class ListMemoriesQuery extends TenantQuery<MemoryView[]> {}
export class GetAnswerQuery extends TenantQuery<AnswerView> {}
/** Checks an answer's claims against memory before it is sent. */
export class VerifyClaimsQuery extends TenantQuery<{ verdicts: ClaimVerdict[] }> {}
/** Model-backed: extract an answer's claims, verify them, rewrite while they fail (input `{ question, answer }`). */
export class ReviseAnswerQuery extends TenantQuery<Revision> {}
/** The answers that cited a memory version: input `{ memoryId }`. */
export class ListAnswersCitingQuery extends TenantQuery<AnswerRow[]> {}
/** Answers reopened by the re-review saga and not reviewed yet. */
export class ListReopenedAnswersQuery extends TenantQuery<AnswerRow[]> {}

/** Which use case answers each message: the single table the handlers are built from. */
export const COMMAND_ROUTES = [
  [AssertMemoryCommand, (h: LedgerHandle, c: TenantCommand<unknown>) => h.ledger.assert(c.tenant, c.input)],
  [RetractMemoryCommand, (h: LedgerHandle, c: TenantCommand<unknown>) => h.ledger.retract(c.tenant, c.input)],
  [QuarantineMemoryCommand, (h: LedgerHandle, c: TenantCommand<unknown>) => h.ledger.quarantine(c.tenant, c.input)],
  [RestoreMemoryCommand, (h: LedgerHandle, c: TenantCommand<unknown>) => h.ledger.restore(c.tenant, c.input)],
  [ConfirmMemoryCommand, (h: LedgerHandle, c: TenantCommand<unknown>) => h.ledger.confirm(c.tenant, c.input)],
  [RetypeMemoryCommand, (h: LedgerHandle, c: TenantCommand<unknown>) => h.ledger.retype(c.tenant, c.input)],
  [RollbackBatchCommand, (h: LedgerHandle, c: TenantCommand<unknown>) => h.ledger.rollback(c.tenant, c.input)],
  [RecordAnswerCommand, (h: LedgerHandle, c: TenantCommand<unknown>) => h.answers.record(c.tenant, c.input)],
  [ReviewAnswerCommand, (h: LedgerHandle, c: TenantCommand<unknown>) => h.answers.review(c.tenant, c.input)],
  [EraseCommand, (h: LedgerHandle, c: TenantCommand<unknown>) => h.erasures.erase(c.tenant, c.input)],
] as const;

export const QUERY_ROUTES = [
  [GetFactQuery, (h: LedgerHandle, q: TenantQuery<unknown>) => h.ledger.fact(q.tenant, q.input)],
  [GetSubjectQuery, (h: LedgerHandle, q: TenantQuery<unknown>) => h.ledger.subject(q.tenant, q.input)],
  [GetHistoryQuery, (h: LedgerHandle, q: TenantQuery<unknown>) => h.ledger.history(q.tenant, q.input)],
  [GetMemoryQuery, (h: LedgerHandle, q: TenantQuery<unknown>) => h.ledger.memory(q.tenant, q.input)],
  [GetAuditQuery, (h: LedgerHandle, q: TenantQuery<unknown>) => h.audit.believed(q.tenant, q.input)],
  [GetAuditDiffQuery, (h: LedgerHandle, q: TenantQuery<unknown>) => h.audit.changes(q.tenant, q.input)],
  [GetBatchQuery, (h: LedgerHandle, q: TenantQuery<unknown>) => h.ledger.batch(q.tenant, q.input)],
  [GetMemoryHistoryQuery, (h: LedgerHandle, q: TenantQuery<unknown>) => h.ledger.memoryHistory(q.tenant, q.input)],
  [ListMemoriesQuery, (h: LedgerHandle, q: TenantQuery<unknown>) => h.ledger.activeMemories(q.tenant, (q.input ?? {}) as { limit?: number; minPosition?: number; status?: MemoryStatus })],
  [GetAnswerQuery, (h: LedgerHandle, q: TenantQuery<unknown>) => h.answers.answer(q.tenant, q.input)],
  [VerifyClaimsQuery, (h: LedgerHandle, q: TenantQuery<unknown>) => h.verifier.verify(q.tenant, q.input)],
  [
    ReviseAnswerQuery,
    (h: LedgerHandle, q: TenantQuery<unknown>) => {
      if (!h.reviser) {
        parse(reviseAnswerSchema, q.input); // bad input is a 400 whether or not a model is configured
        throw new LlmNotConfiguredError('answer revision');
      }
      return h.reviser.revise(q.tenant, q.input);
    },
  ],
  [ListAnswersCitingQuery, (h: LedgerHandle, q: TenantQuery<unknown>) => h.answers.citing(q.tenant, q.input)],
  [ListReopenedAnswersQuery, (h: LedgerHandle, q: TenantQuery<unknown>) => h.answers.reopened(q.tenant, q.input)],
] as const;

/** Assembles the context for a prompt (handled by the recall given to FactLedgerModule.forRoot). */
export class AssembleContextQuery extends TenantQuery<RecallResult> {}

/** A raw chat message through triage, extraction and the admission gates (handled by the module's MessageIngestor). */
export class IngestMessageCommand extends TenantCommand<IngestResult> {}

/** The stored record of an ingested message, with every admission decision: input `{ messageId }`. */
export class GetMessageQuery extends TenantQuery<IngestResult> {}

/** Reads a stored assembly trace: input `{ id }`. */
export class GetTraceQuery extends TenantQuery<Record<string, unknown>> {}

/**
 * Published on the host's EventBus after every successful write through the module. Fire and
 * forget, as the bus is: what must not be lost is read from the stored log, not from this.
 */
export class LedgerWrittenEvent implements IEvent {
  constructor(
    readonly tenant: string,
    readonly position: number,
  ) {}
}

/**
 * Wakes the durable re-review saga, which runs over the log up to now; returns how many answers it
 * reopened (0, and nothing run, where this process's workers or a `factledger worker` run the saga).
 */
export class RunReReviewCommand extends Command<number> {}
