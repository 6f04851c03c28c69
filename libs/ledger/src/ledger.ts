/**
 * The ledger's use cases: validate a command, decide it against its stream, append, bring the
 * read models up to the new position, answer. HTTP, the CLI, scenario runs and the Nest module all
 * call these methods (through the CommandBus/QueryBus where Nest is in play), so there is one path
 * from input to log. The house, by what each part does:
 *
 *   ledger-reads.ts    the queries (a key, a subject, a memory, a batch, a history, as of a moment)
 *   ledger-writes.ts   the commands, each validated, planned and run
 *   write-planner.ts   what a write asks of which stream (restatement, turn parts, premises)
 *   append-loop.ts     read, decide, append, decide again on a conflict, bring the read models up
 *   command-id.ts      command ids: fingerprints, the memory ids they fix, reuse refused
 *   views.ts           the answers: zod schemas (the HTTP API's too) and their types
 */
import { LedgerWrites } from './ledger-writes';

export class Ledger extends LedgerWrites {}
