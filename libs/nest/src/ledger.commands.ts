/**
 * The ledger's commands and queries as @nestjs/cqrs messages. Each carries the tenant and the
 * raw input; validation happens once, in the Ledger, whichever door the input came through.
 */
import { Command, Query } from '@nestjs/cqrs';
import type { FactView, HistoryView, Ledger, MemoryView, RollbackResult, WriteResult } from '@factledger/ledger';
import type { RecallResult } from '@factledger/recall';

abstract class TenantCommand<R> extends Command<R> {
  constructor(readonly tenant: string, readonly input: unknown) {
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
export class RetypeMemoryCommand extends TenantCommand<WriteResult> {}
export class RollbackBatchCommand extends TenantCommand<RollbackResult> {}

export class GetFactQuery extends TenantQuery<FactView> {}
export class GetSubjectQuery extends TenantQuery<Awaited<ReturnType<Ledger['subject']>>> {}
export class GetHistoryQuery extends TenantQuery<{ entries: HistoryView[] } & Awaited<ReturnType<Ledger['history']>>> {}
export class GetMemoryQuery extends TenantQuery<MemoryView> {}
export class ListMemoriesQuery extends TenantQuery<MemoryView[]> {}

/** Which Ledger method answers each message: the single table the handlers are built from. */
export const COMMAND_ROUTES = [
  [AssertMemoryCommand, (l: Ledger, c: TenantCommand<unknown>) => l.assert(c.tenant, c.input)],
  [RetractMemoryCommand, (l: Ledger, c: TenantCommand<unknown>) => l.retract(c.tenant, c.input)],
  [QuarantineMemoryCommand, (l: Ledger, c: TenantCommand<unknown>) => l.quarantine(c.tenant, c.input)],
  [RestoreMemoryCommand, (l: Ledger, c: TenantCommand<unknown>) => l.restore(c.tenant, c.input)],
  [RetypeMemoryCommand, (l: Ledger, c: TenantCommand<unknown>) => l.retype(c.tenant, c.input)],
  [RollbackBatchCommand, (l: Ledger, c: TenantCommand<unknown>) => l.rollback(c.tenant, c.input)],
] as const;

export const QUERY_ROUTES = [
  [GetFactQuery, (l: Ledger, q: TenantQuery<unknown>) => l.fact(q.tenant, q.input)],
  [GetSubjectQuery, (l: Ledger, q: TenantQuery<unknown>) => l.subject(q.tenant, q.input)],
  [GetHistoryQuery, (l: Ledger, q: TenantQuery<unknown>) => l.history(q.tenant, q.input)],
  [GetMemoryQuery, (l: Ledger, q: TenantQuery<unknown>) => l.memory(q.tenant, q.input)],
  [ListMemoriesQuery, (l: Ledger, q: TenantQuery<unknown>) => l.activeMemories(q.tenant, (q.input ?? {}) as { limit?: number; minPosition?: number })],
] as const;

/** Assembles the context for a prompt (handled by the recall given to FactLedgerModule.forRoot). */
export class AssembleContextQuery extends TenantQuery<RecallResult> {}

/** Reads a stored assembly trace: input `{ id }`. */
export class GetTraceQuery extends TenantQuery<Record<string, unknown>> {}
