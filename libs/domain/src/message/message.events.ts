/**
 * The record of one message's trip through the write path: triage, every candidate with its
 * admission decision and gate findings, and what each admitted candidate did to the ledger.
 * It is appended in the same transaction as the memories it produced, to the message's own
 * stream, so the decision and its effect land together or not at all.
 */
import type { Outcome } from '../fact.commands';
import type { Speaker } from '../memory';
import type { FrameHolds, RestatementDecision } from '../restatement';
import type { AdmissionDecision } from './admission';
import type { ResolutionAction, Resolution } from './resolution';
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
  /**
   * The earlier memories resolution found this candidate to change (retired, with the rule and
   * the scores), or to resemble without enough evidence (kept, marked unsure). Absent when
   * resolution did not run (a question, resolution off, a record written before it existed).
   */
  resolution?: ResolvedMemory[];
}

/** One earlier memory as resolution decided on it. */
export interface ResolvedMemory {
  memoryId: string;
  text: string;
  action: ResolutionAction;
  rule: string;
  scores: Resolution['scores'];
  /** What was done: 'retracted' (from the statement's valid time), 'withdrawn' (a correction: it never held), or 'kept'. */
  effect: 'retracted' | 'withdrawn' | 'kept';
  /** When frame alignment decided (a value restated in the same words): the frame, what it was judged to hold, and the alignment's score. */
  frame?: { frame: string; holds: FrameHolds; score: number; effect: RestatementDecision['effect'] };
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
    /**
     * Resolution's counts: earlier memories retired because this message changed them, and
     * resembling ones kept because the evidence was thin; the batch label the retirements
     * carry, so that `rollback` undoes them together (null when none).
     */
    resolved?: { retired: number; keptUnsure: number; batch: string | null };
    /** What the message's requests to forget took away (forgetting.ts); absent when it made none. */
    forgotten?: Forgotten;
  };
}

/**
 * What a message's requests to forget did: ids and counts only, never a word of what was
 * forgotten (the record's text leaves out the requests and the statements they name).
 */
export interface Forgotten {
  /** Requests to forget in the message. */
  requests: number;
  /** Statements of the message itself that a request named: in no memory, and not in the record's text. */
  statements: number;
  /** The earlier memories taken away (an erased fact with every version of it). */
  memoryIds: string[];
  /** 'erased': their words are gone, as `POST /erasures` leaves them; 'quarantined': a store that cannot rewrite its log keeps their words there, out of every read and context. */
  how: 'erased' | 'quarantined';
  /** The erasure that took them; null when nothing was erased. */
  erasureId: string | null;
  /** Requests that named several memories with nothing to tell them apart (their ids): nothing was taken away for them. */
  ambiguous: { memoryIds: string[] }[];
  /** Requests that named nothing the speaker had said. */
  unmatched: number;
}

export const messageStreamId = (messageId: string): string => `message:${messageId}`;

/**
 * Outcomes that mean the message's content is in the ledger: a new version, a confirmation of the
 * current one, or (`duplicate`) the very same text already stored, which is kept once.
 */
export const STORED_OUTCOMES: ReadonlySet<Outcome> = new Set<Outcome>(['created', 'superseded', 'corrected', 'filled-history', 'reinforced', 'overruled', 'duplicate']);
