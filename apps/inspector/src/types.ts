/**
 * The shapes of the API's replies the inspector reads: the server's own view types, imported as
 * types only (erased from the bundle; the inspector reaches the ledger through HTTP alone), so that
 * a change to a reply fails this build rather than the page.
 */
export type { BeliefDiffView as BeliefDiff, BeliefView as Belief, BelievedView as Believed, HistoryView as HistoryEntry, MemoryView as Memory } from '@factledger/ledger';
export type { AnswerRow as CitingAnswer } from '@factledger/projections';
