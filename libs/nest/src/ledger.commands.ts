/**
 * The ledger's commands and queries as @nestjs/cqrs messages. Each carries the tenant and its
 * input, typed as the use case it goes to takes it (the doors parse what they receive with the
 * ledger's schemas; the ledger checks it again, as it does for any library caller).
 */
import { Command, type IEvent, Query } from '@nestjs/cqrs';
import type { AnswerRow } from '@factledger/projections';
import { LlmNotConfiguredError } from '@factledger/llm';
import { parse, reviseAnswerSchema } from '@factledger/ledger';
import type {
  AnswerReviser,
  Answers,
  AnswerView,
  AnswerWriteResult,
  Audit,
  BatchView,
  BeliefDiffView,
  BeliefView,
  ClaimVerdict,
  ClaimVerifier,
  ErasureResult,
  Erasures,
  FactView,
  IngestResult,
  KeyHistoryView,
  Ledger,
  LedgerHandle,
  MemoryHistoryView,
  MessageIngestor,
  MemoryView,
  Revision,
  RollbackResult,
  SubjectView,
  WriteResult,
} from '@factledger/ledger';
import type { Recall, RecallResult } from '@factledger/recall';

/**
 * A write for one tenant. The host owns authentication: it passes the tenant, and optionally the
 * id of whoever acts (a user, a service), which every event the command appends records as its actor.
 */
abstract class TenantCommand<R, I> extends Command<R> {
  constructor(
    readonly tenant: string,
    readonly input: I,
    readonly actor?: string,
  ) {
    super();
  }
}
abstract class TenantQuery<R, I> extends Query<R> {
  constructor(
    readonly tenant: string,
    readonly input: I,
  ) {
    super();
  }
}

/** What a use case takes as its input (after the tenant). */
type InputOf<F> = F extends (tenant: string, input: infer I) => unknown ? I : never;

export class AssertMemoryCommand extends TenantCommand<WriteResult, InputOf<Ledger['assert']>> {}
export class RetractMemoryCommand extends TenantCommand<WriteResult, InputOf<Ledger['retract']>> {}
export class QuarantineMemoryCommand extends TenantCommand<WriteResult, InputOf<Ledger['quarantine']>> {}
export class RestoreMemoryCommand extends TenantCommand<WriteResult, InputOf<Ledger['restore']>> {}
/** A memory marked unconfirmed holds after all (`Ledger.confirm`). */
export class ConfirmMemoryCommand extends TenantCommand<WriteResult, InputOf<Ledger['confirm']>> {}
export class RetypeMemoryCommand extends TenantCommand<WriteResult, InputOf<Ledger['retype']>> {}
export class RollbackBatchCommand extends TenantCommand<RollbackResult, InputOf<Ledger['rollback']>> {}
export class RecordAnswerCommand extends TenantCommand<AnswerWriteResult, InputOf<Answers['record']>> {}
export class ReviewAnswerCommand extends TenantCommand<AnswerWriteResult, InputOf<Answers['review']>> {}
/** Erases a memory (`{memoryId}`), a subject's memories (`{subject}`) or the tenant's (`{all: true}`). */
export class EraseCommand extends TenantCommand<ErasureResult, InputOf<Erasures['erase']>> {}

export class GetFactQuery extends TenantQuery<FactView, InputOf<Ledger['fact']>> {}
export class GetSubjectQuery extends TenantQuery<SubjectView, InputOf<Ledger['subject']>> {}
export class GetHistoryQuery extends TenantQuery<KeyHistoryView, InputOf<Ledger['history']>> {}
export class GetMemoryQuery extends TenantQuery<MemoryView, InputOf<Ledger['memory']>> {}
/** What the ledger believed at `knownAt` (true at `validAt`), for the whole tenant or one `subject`. */
export class GetAuditQuery extends TenantQuery<BeliefView, InputOf<Audit['believed']>> {}
/** What changed in what the ledger believed between transaction times `from` and `to`. */
export class GetAuditDiffQuery extends TenantQuery<BeliefDiffView, InputOf<Audit['changes']>> {}
/** A batch's events and the memories they touched: input `{ batch }`. */
export class GetBatchQuery extends TenantQuery<BatchView, InputOf<Ledger['batch']>> {}
export class GetMemoryHistoryQuery extends TenantQuery<MemoryHistoryView, InputOf<Ledger['memoryHistory']>> {}
export class ListMemoriesQuery extends TenantQuery<MemoryView[], Parameters<Ledger['activeMemories']>[1]> {}
export class GetAnswerQuery extends TenantQuery<AnswerView, InputOf<Answers['answer']>> {}
/** Checks an answer's claims against memory before it is sent. */
export class VerifyClaimsQuery extends TenantQuery<{ verdicts: ClaimVerdict[] }, InputOf<ClaimVerifier['verify']>> {}
/** Model-backed: extract an answer's claims, verify them, rewrite while they fail (input `{ question, answer }`). */
export class ReviseAnswerQuery extends TenantQuery<Revision, InputOf<AnswerReviser['revise']>> {}
/** The answers that cited a memory version: input `{ memoryId }`. */
export class ListAnswersCitingQuery extends TenantQuery<AnswerRow[], InputOf<Answers['citing']>> {}
/** Answers reopened by the re-review saga and not reviewed yet. */
export class ListReopenedAnswersQuery extends TenantQuery<AnswerRow[], InputOf<Answers['reopened']>> {}

/** Which use case answers each message: the single table the handlers are built from. */
export const COMMAND_ROUTES = [
  [AssertMemoryCommand, (h: LedgerHandle, c: AssertMemoryCommand) => h.ledger.assert(c.tenant, c.input)],
  [RetractMemoryCommand, (h: LedgerHandle, c: RetractMemoryCommand) => h.ledger.retract(c.tenant, c.input)],
  [QuarantineMemoryCommand, (h: LedgerHandle, c: QuarantineMemoryCommand) => h.ledger.quarantine(c.tenant, c.input)],
  [RestoreMemoryCommand, (h: LedgerHandle, c: RestoreMemoryCommand) => h.ledger.restore(c.tenant, c.input)],
  [ConfirmMemoryCommand, (h: LedgerHandle, c: ConfirmMemoryCommand) => h.ledger.confirm(c.tenant, c.input)],
  [RetypeMemoryCommand, (h: LedgerHandle, c: RetypeMemoryCommand) => h.ledger.retype(c.tenant, c.input)],
  [RollbackBatchCommand, (h: LedgerHandle, c: RollbackBatchCommand) => h.ledger.rollback(c.tenant, c.input)],
  [RecordAnswerCommand, (h: LedgerHandle, c: RecordAnswerCommand) => h.answers.record(c.tenant, c.input)],
  [ReviewAnswerCommand, (h: LedgerHandle, c: ReviewAnswerCommand) => h.answers.review(c.tenant, c.input)],
  [EraseCommand, (h: LedgerHandle, c: EraseCommand) => h.erasures.erase(c.tenant, c.input)],
] as const;

export const QUERY_ROUTES = [
  [GetFactQuery, (h: LedgerHandle, q: GetFactQuery) => h.ledger.fact(q.tenant, q.input)],
  [GetSubjectQuery, (h: LedgerHandle, q: GetSubjectQuery) => h.ledger.subject(q.tenant, q.input)],
  [GetHistoryQuery, (h: LedgerHandle, q: GetHistoryQuery) => h.ledger.history(q.tenant, q.input)],
  [GetMemoryQuery, (h: LedgerHandle, q: GetMemoryQuery) => h.ledger.memory(q.tenant, q.input)],
  [GetAuditQuery, (h: LedgerHandle, q: GetAuditQuery) => h.audit.believed(q.tenant, q.input)],
  [GetAuditDiffQuery, (h: LedgerHandle, q: GetAuditDiffQuery) => h.audit.changes(q.tenant, q.input)],
  [GetBatchQuery, (h: LedgerHandle, q: GetBatchQuery) => h.ledger.batch(q.tenant, q.input)],
  [GetMemoryHistoryQuery, (h: LedgerHandle, q: GetMemoryHistoryQuery) => h.ledger.memoryHistory(q.tenant, q.input)],
  [ListMemoriesQuery, (h: LedgerHandle, q: ListMemoriesQuery) => h.ledger.activeMemories(q.tenant, q.input)],
  [GetAnswerQuery, (h: LedgerHandle, q: GetAnswerQuery) => h.answers.answer(q.tenant, q.input)],
  [VerifyClaimsQuery, (h: LedgerHandle, q: VerifyClaimsQuery) => h.verifier.verify(q.tenant, q.input)],
  [
    ReviseAnswerQuery,
    (h: LedgerHandle, q: ReviseAnswerQuery) => {
      if (!h.reviser) {
        parse(reviseAnswerSchema, q.input); // bad input is a 400 whether or not a model is configured
        throw new LlmNotConfiguredError('answer revision');
      }
      return h.reviser.revise(q.tenant, q.input);
    },
  ],
  [ListAnswersCitingQuery, (h: LedgerHandle, q: ListAnswersCitingQuery) => h.answers.citing(q.tenant, q.input)],
  [ListReopenedAnswersQuery, (h: LedgerHandle, q: ListReopenedAnswersQuery) => h.answers.reopened(q.tenant, q.input)],
] as const;

/** Assembles the context for a prompt (handled by the recall given to FactLedgerModule.forRoot). */
export class AssembleContextQuery extends TenantQuery<RecallResult, InputOf<Recall['assemble']>> {}

/** A raw chat message through triage, extraction and the admission gates (handled by the module's MessageIngestor). */
export class IngestMessageCommand extends TenantCommand<IngestResult, InputOf<MessageIngestor['ingest']>> {}

/** The stored record of an ingested message, with every admission decision: input `{ messageId }`. */
export class GetMessageQuery extends TenantQuery<IngestResult, { messageId: string }> {}

/** Reads a stored assembly trace: input `{ id }`. */
export class GetTraceQuery extends TenantQuery<Record<string, unknown>, { id: string }> {}

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
