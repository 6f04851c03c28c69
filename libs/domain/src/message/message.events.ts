/**
 * The record of one message's trip through the write path: triage, every candidate with its
 * admission decision and gate findings, and what each admitted candidate did to the ledger.
 * It is appended in the same transaction as the memories it produced, to the message's own
 * stream, so the decision and its effect land together or not at all.
 */
import type { Outcome } from '../fact.commands';
import type { Speaker } from '../memory';
import type { AdmissionDecision } from './admission';
import type { Language, MessageKind } from './triage';

export interface IngestedCandidate extends Omit<AdmissionDecision, 'candidate'> {
  memoryKind: 'fact' | 'prose';
  subject: string | null;
  relation: string | null;
  value: string | null;
  text: string;
  validFrom: string;
  rule: string;
  /** For an admitted or retyped candidate: what the write did, and to which memory. */
  outcome: Outcome | null;
  memoryId: string | null;
}

export interface MessageIngested {
  type: 'MessageIngested';
  data: {
    messageId: string;
    text: string;
    speaker: Speaker;
    source: string;
    at: string;
    kind: MessageKind;
    topic: string;
    language: Language;
    triage: string[];
    candidates: IngestedCandidate[];
    /** The policy's name and the judge of triage ("rules" or a model), for the audit. */
    triagedBy: string;
  };
}

export const messageStreamId = (messageId: string): string => `message:${messageId}`;

/**
 * Outcomes that mean the message's content is in the ledger: a new version, a confirmation of the
 * current one, or (`duplicate`) the very same text already stored, which is kept once.
 */
export const STORED_OUTCOMES: ReadonlySet<Outcome> = new Set<Outcome>(['created', 'superseded', 'corrected', 'filled-history', 'reinforced', 'overruled', 'duplicate']);
