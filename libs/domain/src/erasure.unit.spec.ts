import { emptyTexts, erasureTargetOf, isErasedData, isLiveEvent, MEMORY_ERASED, redactEvent } from './erasure';
import { InvalidInputError } from './errors';
import { replay } from './fact.state';

const erased = new Set(['m-gone']);

describe('erasure rules', () => {
  it("leaves of an erased stream's events only the memory id and the erasure, whatever their type", () => {
    expect(redactEvent({ type: 'FactAsserted', data: { memoryId: 'm-gone', subject: 'Ingrid', value: 'secret', text: 'Ingrid: secret' } }, erased, 'e1', true)).toEqual({
      memoryId: 'm-gone',
      erased: 'e1',
    });
    expect(redactEvent({ type: 'FactRetracted', data: { memoryId: 'm-gone', reason: 'she said so', validTo: 'x' } }, erased, 'e1', true)).toEqual({ memoryId: 'm-gone', erased: 'e1' });
    // Already erased, and the erasure's own markers: nothing to do again.
    expect(redactEvent({ type: 'FactAsserted', data: { memoryId: 'm-gone', erased: 'e0' } }, erased, 'e1', true)).toBeNull();
    expect(redactEvent({ type: MEMORY_ERASED, data: { memoryId: 'm-gone', erasureId: 'e0' } }, erased, 'e1', true)).toBeNull();
  });

  it('empties a message record that produced an erased memory, keeping ids, decisions and numbers', () => {
    const record = {
      messageId: 'm1',
      text: 'My code is secret',
      speaker: 'user',
      source: 'chat: Ingrid',
      kind: 'inform',
      triage: ['statement'],
      candidates: [
        // prettier-ignore
        { memoryId: 'm-gone', outcome: 'created', verdict: 'admitted', text: 'code: secret', value: 'secret', subject: 'user', gates: [{ gate: 'length', passed: true, detail: 'secret is short' }], scores: { cosine: 0.4 } },
        { memoryId: 'm-other', outcome: 'created', verdict: 'admitted', text: 'other words', value: null, subject: null, gates: [] },
      ],
    };
    const left = redactEvent({ type: 'MessageIngested', data: record }, erased, 'e1', false) as typeof record & { erased: string };
    expect(JSON.stringify(left)).not.toMatch(/secret|Ingrid|other words/);
    expect(left).toMatchObject({ messageId: 'm1', speaker: 'user', kind: 'inform', triage: ['statement'], erased: 'e1', text: '', source: '' });
    // prettier-ignore
    expect(left.candidates[0]).toMatchObject({ memoryId: 'm-gone', outcome: 'created', verdict: 'admitted', text: '', value: '', subject: '', gates: [{ gate: 'length', passed: true, detail: '' }], scores: { cosine: 0.4 } });
    // A record that produced none of them is left alone…
    expect(redactEvent({ type: 'MessageIngested', data: { ...record, candidates: [record.candidates[1]] } }, erased, 'e1', false)).toBeNull();
  });

  it('takes the words of an erased memory out of a message that only compared a candidate with it', () => {
    const record = {
      messageId: 'm2',
      text: 'My code is new-value now',
      candidates: [{ memoryId: 'm-new', outcome: 'created', text: 'code: new-value', resolution: [{ memoryId: 'm-gone', text: 'code: secret', action: 'update', effect: 'retracted' }] }],
    };
    const left = redactEvent({ type: 'MessageIngested', data: record }, erased, 'e1', false) as typeof record;
    expect(left.text).toBe('My code is new-value now');
    expect(left.candidates[0]!.resolution).toEqual([{ memoryId: 'm-gone', text: '', action: 'update', effect: 'retracted', erased: true }]);
    expect(redactEvent({ type: 'MessageIngested', data: left }, erased, 'e2', false)).toBeNull();
  });

  it("takes an answer's question, text and the erased citation's words, and keeps its other citations", () => {
    const answer = {
      answerId: 'a1',
      question: 'What is the code?',
      text: 'It is secret.',
      citations: [
        { memoryId: 'm-gone', value: 'secret', text: 'code: secret', speaker: 'user' },
        { memoryId: 'm-kept', value: 'blue', text: 'colour: blue', speaker: 'user' },
      ],
    };
    expect(redactEvent({ type: 'AnswerRecorded', data: answer }, erased, 'e1', false)).toEqual({
      answerId: 'a1',
      question: '',
      text: '',
      citations: [{ memoryId: 'm-gone', value: null, text: '', speaker: 'user', erased: true }, answer.citations[1]],
      erased: 'e1',
    });
    expect(redactEvent({ type: 'AnswerRecorded', data: { ...answer, citations: [answer.citations[1]] } }, erased, 'e1', false)).toBeNull();
    expect(redactEvent({ type: 'AnswerReviewed', data: { answerId: 'a1', note: 'fine' } }, erased, 'e1', false)).toBeNull();
  });

  it('empties every string but structure, through arrays and objects', () => {
    expect(emptyTexts({ a: 'x', n: 1, b: true, z: null, list: ['y', { memoryId: 'keep', t: 'go' }], at: '2026-12-01' })).toEqual({
      a: '',
      n: 1,
      b: true,
      z: null,
      list: ['', { memoryId: 'keep', t: '' }],
      at: '2026-12-01',
    });
  });

  it('a stream replayed past an erasure has no trace of the erased memories', () => {
    const events = [
      { eventId: '1', batch: null, event: { type: 'FactAsserted', data: { memoryId: 'm-gone', erased: 'e1' } } },
      { eventId: '2', batch: null, event: { type: MEMORY_ERASED, data: { memoryId: 'm-gone', erasureId: 'e1' } } },
    ] as never[];
    expect(replay(events).versions.size).toBe(0);
    expect(isErasedData({ erased: 'e1' })).toBe(true);
    expect(isErasedData({ erased: true })).toBe(false);
    expect(isLiveEvent({ type: 'FactAsserted', data: { memoryId: 'm' } })).toBe(true);
  });

  it('takes exactly one target', () => {
    expect(erasureTargetOf({ memoryId: 'm' })).toEqual({ memoryId: 'm' });
    expect(erasureTargetOf({ subject: 'Ingrid' })).toEqual({ subject: 'Ingrid' });
    expect(erasureTargetOf({ all: true })).toEqual({ all: true });
    for (const bad of [{}, { memoryId: 'm', subject: 's' }, { all: false }]) expect(() => erasureTargetOf(bad)).toThrow(InvalidInputError);
  });
});
