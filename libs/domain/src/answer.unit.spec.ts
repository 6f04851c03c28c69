import { type AnswerCommand, decideAnswer, DEFAULT_REVIEW_POLICY, evolveAnswer, initialAnswerState, reviewTrigger } from './answer';
import { IllegalLifecycleError } from './errors';

const cite = { memoryId: 'm1', value: '8000', text: 'port 8000', speaker: 'user' };
const record: AnswerCommand = { kind: 'RecordAnswer', answerId: 'a1', question: 'Which port?', text: 'Port 8000.', citations: [cite] };
const reopen = (position: number): AnswerCommand => ({ kind: 'ReopenAnswer', answerId: 'a1', memoryId: 'm1', reason: 'changed', cause: { position, event: 'FactSuperseded' } });

describe('answers', () => {
  it('records once, reopens once until reviewed, then can reopen again', () => {
    let state = initialAnswerState();
    const apply = (c: AnswerCommand) => {
      const events = decideAnswer(c, state);
      for (const e of events) state = evolveAnswer(state, e);
      return events.map((e) => e.type);
    };
    expect(apply(record)).toEqual(['AnswerRecorded']);
    expect(() => apply(record)).toThrow(IllegalLifecycleError);
    expect(apply(reopen(5))).toEqual(['AnswerReopened']);
    expect(apply(reopen(6))).toEqual([]); // already waiting for review
    expect(apply({ kind: 'ReviewAnswer', answerId: 'a1', note: null })).toEqual(['AnswerReviewed']);
    expect(apply({ kind: 'ReviewAnswer', answerId: 'a1', note: null })).toEqual([]);
    expect(apply(reopen(9))).toEqual(['AnswerReopened']);
  });

  it('refuses to reopen or review an answer never recorded', () => {
    expect(() => decideAnswer(reopen(1), initialAnswerState())).toThrow(IllegalLifecycleError);
  });

  it('reopens on supersession, correction, retraction and quarantine, not on reinforcement, retype or a challenge', () => {
    const e = (type: string) => ({ type, data: { memoryId: 'm1' } }) as never;
    for (const t of ['FactSuperseded', 'FactCorrected', 'FactRetracted', 'MemoryQuarantined']) expect(reviewTrigger(e(t))).toMatchObject({ memoryId: 'm1' });
    for (const t of ['FactReinforced', 'MemoryRetyped', 'FactOverruled', 'MemoryRestored', 'FactAsserted']) expect(reviewTrigger(e(t))).toBeNull();
    // The policy is data: a retype can be made to count.
    expect(reviewTrigger(e('MemoryRetyped'), { ...DEFAULT_REVIEW_POLICY, threshold: 0.2 })).toMatchObject({ memoryId: 'm1' });
  });
});
