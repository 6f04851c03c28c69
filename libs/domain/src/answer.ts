/**
 * Recorded answers and their re-review (R15), pure. An answer pins the exact versions it cited;
 * when one of them goes through a lifecycle change whose magnitude crosses the threshold, the
 * answer is reopened — once: a reopened answer stays open (further changes are recorded as no-ops)
 * until it is reviewed.
 */
import { IllegalLifecycleError, InvalidInputError } from './errors';
import type { MemoryEvent } from './fact.events';

export interface Citation {
  memoryId: string;
  /** The cited version as it was when the answer was given. */
  value: string | null;
  text: string;
  speaker: string;
}

export interface AnswerRecorded {
  type: 'AnswerRecorded';
  data: { answerId: string; question: string; text: string; citations: Citation[] };
}

export interface AnswerReopened {
  type: 'AnswerReopened';
  data: { answerId: string; memoryId: string; reason: string; cause: { position: number; event: string } };
}

export interface AnswerReviewed {
  type: 'AnswerReviewed';
  data: { answerId: string; note: string | null };
}

export type AnswerEvent = AnswerRecorded | AnswerReopened | AnswerReviewed;
export const ANSWER_EVENT_TYPES = ['AnswerRecorded', 'AnswerReopened', 'AnswerReviewed'] as const;

export interface AnswerState {
  answerId: string | null;
  open: boolean;
}

export const initialAnswerState = (): AnswerState => ({ answerId: null, open: false });

export function evolveAnswer(state: AnswerState, event: AnswerEvent): AnswerState {
  switch (event.type) {
    case 'AnswerRecorded':
      return { answerId: event.data.answerId, open: false };
    case 'AnswerReopened':
      return { ...state, open: true };
    case 'AnswerReviewed':
      return { ...state, open: false };
  }
}

export type AnswerCommand =
  | { kind: 'RecordAnswer'; answerId: string; question: string; text: string; citations: Citation[] }
  | { kind: 'ReopenAnswer'; answerId: string; memoryId: string; reason: string; cause: { position: number; event: string } }
  | { kind: 'ReviewAnswer'; answerId: string; note: string | null };

export function decideAnswer(command: AnswerCommand, state: AnswerState): AnswerEvent[] {
  switch (command.kind) {
    case 'RecordAnswer':
      if (state.answerId) throw new IllegalLifecycleError(`answer ${command.answerId} is already recorded`);
      if (!command.text.trim()) throw new InvalidInputError([{ path: 'text', message: 'the answer text is empty' }]);
      return [{ type: 'AnswerRecorded', data: { answerId: command.answerId, question: command.question, text: command.text, citations: command.citations } }];
    case 'ReopenAnswer':
      if (!state.answerId) throw new IllegalLifecycleError(`answer ${command.answerId} was never recorded`);
      if (state.open) return []; // once: already waiting for review
      return [{ type: 'AnswerReopened', data: { answerId: command.answerId, memoryId: command.memoryId, reason: command.reason, cause: command.cause } }];
    case 'ReviewAnswer':
      if (!state.answerId) throw new IllegalLifecycleError(`answer ${command.answerId} was never recorded`);
      if (!state.open) return [];
      return [{ type: 'AnswerReviewed', data: { answerId: command.answerId, note: command.note } }];
  }
}

/** How much each lifecycle event changes what a cited version said, and the line that reopens answers. */
export interface ReviewPolicy {
  magnitudes: Readonly<Record<string, number>>;
  threshold: number;
}

/**
 * Defaults: a newer different value, a correction, a retraction, a quarantine and a statement
 * inside the cited memory replaced by a newer one cross the line; saying the same value again, a
 * retype or a lower-authority challenge do not.
 */
export const DEFAULT_REVIEW_POLICY: ReviewPolicy = {
  magnitudes: {
    FactSuperseded: 1,
    FactCorrected: 1,
    FactRetracted: 1,
    MemoryQuarantined: 1,
    MemoryRetyped: 0.2,
    FactOverruled: 0,
    FactReinforced: 0,
    MemoryRestored: 0,
    FactRetractionUndone: 0,
    FactAsserted: 0,
    MemoryPartsSuperseded: 1,
    MemoryPartsRestored: 0,
    MemoryUnconfirmed: 1,
    MemoryConfirmed: 0,
  },
  threshold: 1,
};

const REASONS: Record<string, string> = {
  FactSuperseded: 'a newer value replaced the cited one',
  FactCorrected: 'the cited value was corrected (it was never true)',
  FactRetracted: 'the cited value was retracted',
  MemoryQuarantined: 'the cited memory was quarantined',
  MemoryPartsSuperseded: 'a statement inside the cited memory was replaced by a newer one',
  MemoryUnconfirmed: 'a memory the cited one hangs on changed: it is no longer confirmed',
};

/** Why an answer that cited an erased memory is reopened (always, whatever the policy). */
export const ERASED_REASON = 'the cited memory was erased';

/** The cited version an event changes and why, when the change crosses the policy's threshold; else null. */
export function reviewTrigger(event: MemoryEvent, policy: ReviewPolicy = DEFAULT_REVIEW_POLICY): { memoryId: string; reason: string } | null {
  const magnitude = policy.magnitudes[event.type] ?? 0;
  if (magnitude < policy.threshold) return null;
  const memoryId = (event.data as { memoryId: string }).memoryId;
  return { memoryId, reason: REASONS[event.type] ?? `${event.type} (magnitude ${magnitude})` };
}
