/**
 * Emmett-style given / when / then for the pure decider: no database, no clock. `given` folds
 * commands through decide + evolve (event ids e1, e2, … in log order), `when` decides one more
 * command against that state, `then` checks the decision's events and outcome.
 */
import { CardinalityConflictError, InvalidInputError, SlotTakenError, UnknownMemoryError } from './errors';
import type { AssertMemory, MemoryCommand, Outcome, RetractMemory } from './fact.commands';
import { type Decision, decide, planRollback } from './fact.decider';
import { evolve, hiddenAt, inTimeline, initialState, replay, statusOf, type StreamState, withoutParts } from './fact.state';
import type { MemoryEvent, MemoryEventType } from './fact.events';
import { factStreamId } from './keys';

// ---- harness ------------------------------------------------------------------------------

type Step = MemoryCommand | { batch: string; command: MemoryCommand };

const inBatch = (batch: string, command: MemoryCommand): Step => ({ batch, command });

/** Append events to the state's log with the next ids (e<n>), as the store would. */
function apply(state: StreamState, events: MemoryEvent[], batch: string | null = null): StreamState {
  for (const event of events) evolve(state, { eventId: `e${state.log!.length + 1}`, batch, event });
  return state;
}

function given(...steps: Step[]): StreamState {
  const state = initialState();
  for (const step of steps) {
    const { command, batch } = 'kind' in step ? { command: step, batch: null } : step;
    apply(state, decide(command, state).events, batch);
  }
  return state;
}

function when(state: StreamState, command: MemoryCommand): Decision {
  return decide(command, state);
}

function then(decision: Decision, expected: { outcome: Outcome; events: Array<{ type: MemoryEventType; data?: object }>; memoryId?: string }): void {
  expect(decision.events.map((e) => e.type)).toEqual(expected.events.map((e) => e.type));
  expect(decision).toMatchObject(expected);
}

// ---- commands -----------------------------------------------------------------------------

const d = (day: string): Date => new Date(`${day}T00:00:00.000Z`);
const iso = (day: string): string => d(day).toISOString();

function assertFact(memoryId: string, value: string, validFrom: string, over: Partial<AssertMemory> = {}): AssertMemory {
  return {
    kind: 'AssertMemory',
    memoryId,
    memoryKind: 'fact',
    subject: 'billing database',
    relation: 'runs on host',
    scope: {},
    value,
    text: `The billing database runs on host ${value}.`,
    type: 'fact',
    speaker: 'document',
    source: null,
    authority: 1,
    cardinality: undefined,
    core: false,
    validFrom: d(validFrom),
    validTo: null,
    mode: 'update',
    ...over,
  };
}

const python = (memoryId: string, value: string, validFrom = '2026-01-01', over: Partial<AssertMemory> = {}): AssertMemory =>
  assertFact(memoryId, value, validFrom, {
    subject: 'library',
    relation: 'supports python',
    cardinality: 'many',
    text: `The library supports Python ${value}.`,
    ...over,
  });

function assertProse(memoryId: string, text: string, type = 'milestone'): AssertMemory {
  return {
    ...assertFact(memoryId, '', '2026-01-01'),
    memoryKind: 'prose',
    subject: null,
    relation: null,
    value: null,
    text,
    type,
    speaker: 'user',
  };
}

const retract = (memoryId: string | null, validFrom: string, value: string | null = null): RetractMemory => ({
  kind: 'RetractMemory',
  memoryId,
  value,
  validFrom: d(validFrom),
  reason: null,
});
const quarantine = (memoryId: string): MemoryCommand => ({ kind: 'QuarantineMemory', memoryId, reason: 'noise' });
const restore = (memoryId: string): MemoryCommand => ({ kind: 'RestoreMemory', memoryId });
const retype = (memoryId: string, type: string): MemoryCommand => ({ kind: 'RetypeMemory', memoryId, type });

// ---- R1 supersession, reinforcement, duplicates ------------------------------------------

describe('R1: one key, one current value', () => {
  it('a new key is asserted with an open period (created)', () => {
    then(when(given(), assertFact('v1', 'db-03', '2026-02-01')), {
      outcome: 'created',
      memoryId: 'v1',
      events: [{ type: 'FactAsserted', data: { memoryId: 'v1', value: 'db-03', cardinality: 'one', validFrom: iso('2026-02-01'), validTo: null } }],
    });
  });

  it('a different value with a later validFrom supersedes the old one at the new start', () => {
    const state = given(assertFact('v1', 'db-03', '2026-02-01'));
    then(when(state, assertFact('v2', 'db-07', '2026-05-10')), {
      outcome: 'superseded',
      events: [
        { type: 'FactSuperseded', data: { memoryId: 'v1', by: 'v2', validTo: iso('2026-05-10') } },
        { type: 'FactAsserted', data: { memoryId: 'v2', value: 'db-07', validFrom: iso('2026-05-10'), validTo: null } },
      ],
    });
  });

  it('the same value in different words is a reinforcement (confirmations 2), not a new version', () => {
    const state = given(assertFact('v1', 'db-03', '2026-02-01'));
    then(when(state, assertFact('v2', 'db-03', '2026-03-01', { text: 'Billing DB host: db-03.', speaker: 'user' })), {
      outcome: 'reinforced',
      memoryId: 'v1',
      events: [{ type: 'FactReinforced', data: { memoryId: 'v1', text: 'Billing DB host: db-03.', speaker: 'user', confirmations: 2 } }],
    });
  });

  it('the same value in the same words is a duplicate: no events', () => {
    const state = given(assertFact('v1', 'db-03', '2026-02-01'));
    then(when(state, assertFact('v2', 'db-03', '2026-02-01')), { outcome: 'duplicate', memoryId: 'v1', events: [] });
    then(when(state, assertFact('v3', ' DB-03 ', '2026-03-01', { text: 'the billing  database runs on host db-03.' })), {
      outcome: 'duplicate',
      memoryId: 'v1',
      events: [],
    });
  });
});

// ---- R2 valid time from the source --------------------------------------------------------

describe('R2: valid time comes from the source, not arrival order', () => {
  it('a late-arriving older fact fills history up to the current start and leaves the current untouched', () => {
    const state = given(assertFact('new', 'db-07', '2026-05-10'));
    then(when(state, assertFact('old', 'db-03', '2026-02-01')), {
      outcome: 'filled-history',
      events: [{ type: 'FactAsserted', data: { memoryId: 'old', value: 'db-03', validFrom: iso('2026-02-01'), validTo: iso('2026-05-10') } }],
    });
  });

  it('re-reading the old sentence of a superseded version is a duplicate and does not reactivate it', () => {
    const state = given(assertFact('old', 'db-03', '2026-02-01'), assertFact('new', 'db-07', '2026-05-10'));
    then(when(state, assertFact('again', 'db-03', '2026-02-01', { source: 'old wiki page read again' })), {
      outcome: 'duplicate',
      memoryId: 'old',
      events: [],
    });
  });

  it('re-reading a late-filled history sentence is also a duplicate', () => {
    const state = given(assertFact('new', 'db-07', '2026-05-10'), assertFact('old', 'db-03', '2026-02-01'));
    then(when(state, assertFact('again', 'db-03', '2026-02-01')), { outcome: 'duplicate', memoryId: 'old', events: [] });
  });

  it('a genuinely newer revert to the old value supersedes the current one with a new version', () => {
    const state = given(assertFact('old', 'db-03', '2026-02-01'), assertFact('new', 'db-07', '2026-05-10'));
    then(when(state, assertFact('revert', 'db-03', '2026-07-01')), {
      outcome: 'superseded',
      memoryId: 'revert',
      events: [
        { type: 'FactSuperseded', data: { memoryId: 'new', by: 'revert', validTo: iso('2026-07-01') } },
        { type: 'FactAsserted', data: { memoryId: 'revert', value: 'db-03', validFrom: iso('2026-07-01'), validTo: null } },
      ],
    });
  });
});

// ---- said time: a later statement over a stale present-tense view ---------------------------

describe('said time: a later statement wins over a present-tense one whose start is unknown', () => {
  const t = (at: string): Date => new Date(at);
  /** "I live in …": no start said, so it holds from when it was said. */
  const livesIn = (memoryId: string, city: string, saidAt: string, over: Partial<AssertMemory> = {}): AssertMemory =>
    assertFact(memoryId, city, '2026-01-01', {
      subject: 'user',
      relation: 'lives in',
      text: `I live in ${city}.`,
      speaker: 'user',
      validFrom: t(saidAt),
      saidAt: t(saidAt),
      startStated: false,
      ...over,
    });
  /** "We moved to … last weekend": a start said, before the statement. */
  const movedTo = (memoryId: string, city: string, saidAt: string, from: string, over: Partial<AssertMemory> = {}): AssertMemory =>
    livesIn(memoryId, city, saidAt, { text: `We moved to ${city} last weekend.`, validFrom: t(from), startStated: true, ...over });

  it('records when it was said, and that the start was not said; a command without a said time records neither', () => {
    const said = when(given(), livesIn('seattle', 'Seattle', '2026-03-10T12:00:00Z'));
    expect(said.events[0]!.data).toMatchObject({ saidAt: '2026-03-10T12:00:00.000Z', startUnknown: true, validFrom: '2026-03-10T12:00:00.000Z' });
    expect(given(livesIn('seattle', 'Seattle', '2026-03-10T12:00:00Z')).versions.get('seattle')).toMatchObject({ saidAt: Date.parse('2026-03-10T12:00:00Z'), startUnknown: true });
    const stated = when(given(), movedTo('portland', 'Portland', '2026-03-10T12:05:00Z', '2026-03-07T00:00:00Z'));
    expect(stated.events[0]!.data).toMatchObject({ saidAt: '2026-03-10T12:05:00.000Z' });
    expect(stated.events[0]!.data).not.toHaveProperty('startUnknown');
    const old = when(given(), assertFact('v1', 'db-03', '2026-02-01'));
    expect(old.events[0]!.data).not.toHaveProperty('saidAt');
    expect(old.events[0]!.data).not.toHaveProperty('startUnknown');
    expect(given(assertFact('v1', 'db-03', '2026-02-01')).versions.get('v1')).toMatchObject({ saidAt: null, startUnknown: false });
  });

  it('a move dated before the present-tense statement closes that statement at its own start and runs on (superseded)', () => {
    const state = given(livesIn('seattle', 'Seattle', '2026-03-10T12:00:00Z'));
    then(when(state, movedTo('portland', 'Portland', '2026-03-10T12:05:00Z', '2026-03-03T12:05:00Z')), {
      outcome: 'superseded',
      memoryId: 'portland',
      events: [
        { type: 'FactSuperseded', data: { memoryId: 'seattle', by: 'portland', validTo: '2026-03-10T12:00:00.000Z' } },
        { type: 'FactAsserted', data: { memoryId: 'portland', value: 'Portland', validFrom: '2026-03-03T12:05:00.000Z', validTo: null, saidAt: '2026-03-10T12:05:00.000Z' } },
      ],
    });
    const after = given(livesIn('seattle', 'Seattle', '2026-03-10T12:00:00Z'), movedTo('portland', 'Portland', '2026-03-10T12:05:00Z', '2026-03-03T12:05:00Z'));
    const seattle = after.versions.get('seattle')!;
    expect(statusOf(seattle, Date.parse('2026-03-11T00:00:00Z'))).toBe('retired');
    expect([seattle.validFrom, seattle.validTo]).toEqual([Date.parse('2026-03-10T12:00:00Z'), Date.parse('2026-03-10T12:00:00Z')]);
    // It holds at no instant: a later change is not clipped at its start.
    then(when(after, movedTo('denver', 'Denver', '2026-03-12T00:00:00Z', '2026-03-05T00:00:00Z')), {
      outcome: 'superseded',
      events: [
        { type: 'FactSuperseded', data: { memoryId: 'portland', by: 'denver', validTo: '2026-03-05T00:00:00.000Z' } },
        { type: 'FactAsserted', data: { memoryId: 'denver', validFrom: '2026-03-05T00:00:00.000Z', validTo: null } },
      ],
    });
  });

  it('a chat imported out of order: the present-tense statement said before the move is recorded and closed at once (filled-history)', () => {
    const state = given(movedTo('portland', 'Portland', '2026-03-10T12:05:00Z', '2026-03-03T12:05:00Z'));
    then(when(state, livesIn('seattle', 'Seattle', '2026-03-10T12:00:00Z')), {
      outcome: 'filled-history',
      memoryId: 'seattle',
      events: [
        { type: 'FactAsserted', data: { memoryId: 'seattle', value: 'Seattle', validFrom: '2026-03-10T12:00:00.000Z', saidAt: '2026-03-10T12:00:00.000Z', startUnknown: true } },
        { type: 'FactSuperseded', data: { memoryId: 'seattle', by: 'portland', validTo: '2026-03-10T12:00:00.000Z' } },
      ],
    });
    const after = given(movedTo('portland', 'Portland', '2026-03-10T12:05:00Z', '2026-03-03T12:05:00Z'), livesIn('seattle', 'Seattle', '2026-03-10T12:00:00Z'));
    expect(after.versions.get('portland')).toMatchObject({ validTo: null, supersededBy: null });
    expect(statusOf(after.versions.get('seattle')!, Date.parse('2026-03-11T00:00:00Z'))).toBe('retired');
  });

  it('stated starts in order stay as they were: a start said before the later statement is superseded at the new start', () => {
    const state = given(livesIn('seattle', 'Seattle', '2026-03-10T12:00:00Z', { startStated: true }));
    then(when(state, movedTo('portland', 'Portland', '2026-03-10T12:05:00Z', '2026-03-03T12:05:00Z')), {
      outcome: 'filled-history',
      events: [{ type: 'FactAsserted', data: { memoryId: 'portland', validFrom: '2026-03-03T12:05:00.000Z', validTo: '2026-03-10T12:00:00.000Z' } }],
    });
    // Imported out of order, a statement that said its start is not the stale view: it supersedes as before.
    const imported = given(movedTo('portland', 'Portland', '2026-03-10T12:05:00Z', '2026-03-03T12:05:00Z'));
    then(when(imported, livesIn('seattle', 'Seattle', '2026-03-10T12:00:00Z', { startStated: true })), {
      outcome: 'superseded',
      events: [
        { type: 'FactSuperseded', data: { memoryId: 'portland', by: 'seattle', validTo: '2026-03-10T12:00:00.000Z' } },
        { type: 'FactAsserted', data: { memoryId: 'seattle', validFrom: '2026-03-10T12:00:00.000Z', validTo: null } },
      ],
    });
  });

  it('a past period that ends before the present-tense statement began leaves it current', () => {
    const state = given(livesIn('seattle', 'Seattle', '2026-03-10T12:00:00Z'));
    then(when(state, movedTo('portland', 'Portland', '2026-03-10T12:05:00Z', '2025-01-01T00:00:00Z', { validTo: t('2025-06-01T00:00:00Z') })), {
      outcome: 'filled-history',
      events: [{ type: 'FactAsserted', data: { memoryId: 'portland', validFrom: '2025-01-01T00:00:00.000Z', validTo: '2025-06-01T00:00:00.000Z' } }],
    });
  });

  it('R2 unchanged: a late-arriving older document with a stated start fills history and never retires the current value', () => {
    const state = given(assertFact('new', 'db-07', '2026-05-10', { saidAt: d('2026-05-10'), startStated: false }));
    then(when(state, assertFact('old', 'db-03', '2026-02-01', { saidAt: d('2026-02-01'), startStated: true })), {
      outcome: 'filled-history',
      events: [{ type: 'FactAsserted', data: { memoryId: 'old', value: 'db-03', validFrom: iso('2026-02-01'), validTo: iso('2026-05-10'), saidAt: iso('2026-02-01') } }],
    });
  });
});

// ---- R3 update vs correction --------------------------------------------------------------

describe('R3: update vs correction', () => {
  it('mode correction marks the old version corrected and the new one takes its validFrom', () => {
    const state = given(assertFact('lisbon', 'Lisbon', '2026-01-01'));
    then(when(state, assertFact('porto', 'Porto', '2026-03-01', { mode: 'correction' })), {
      outcome: 'corrected',
      events: [
        { type: 'FactCorrected', data: { memoryId: 'lisbon', by: 'porto' } },
        { type: 'FactAsserted', data: { memoryId: 'porto', value: 'Porto', validFrom: iso('2026-01-01'), validTo: null } },
      ],
    });
  });

  it('a different value from the very same validFrom in update mode is a correction', () => {
    const state = given(assertFact('lisbon', 'Lisbon', '2026-01-01'));
    then(when(state, assertFact('porto', 'Porto', '2026-01-01', { mode: 'update' })), {
      outcome: 'corrected',
      events: [
        { type: 'FactCorrected', data: { memoryId: 'lisbon', by: 'porto' } },
        { type: 'FactAsserted', data: { memoryId: 'porto', validFrom: iso('2026-01-01'), validTo: null } },
      ],
    });
  });

  it('re-reading the sentence of a corrected version is a duplicate and does not reactivate it', () => {
    const state = given(assertFact('lisbon', 'Lisbon', '2026-01-01'), assertFact('porto', 'Porto', '2026-01-01', { mode: 'correction' }));
    then(when(state, assertFact('again', 'Lisbon', '2026-01-01')), { outcome: 'duplicate', memoryId: 'lisbon', events: [] });
  });

  it('an update keeps the old version in the timeline for its own period', () => {
    const state = given(assertFact('alice', 'Alice', '2026-01-01'), assertFact('bob', 'Bob', '2026-04-01'));
    const alice = state.versions.get('alice')!;
    expect(inTimeline(alice)).toBe(true);
    expect(alice.validTo).toBe(d('2026-04-01').getTime());
    expect(alice.supersededBy).toBe('bob');
  });
});

// ---- R4 scopes, sets, authority -----------------------------------------------------------

describe('R4: scopes, sets and authority', () => {
  it('a different scope is a different stream', () => {
    const k = { subject: 'API gateway', relation: 'listens on port' };
    expect(factStreamId({ ...k, scope: { env: 'staging' } })).not.toBe(factStreamId({ ...k, scope: { env: 'production' } }));
  });

  it('many: two values coexist without supersession', () => {
    const state = given(python('p310', '3.10'));
    then(when(state, python('p311', '3.11')), {
      outcome: 'created',
      events: [{ type: 'FactAsserted', data: { memoryId: 'p311', value: '3.11', cardinality: 'many', validTo: null } }],
    });
  });

  it('many: retract by value closes only that element', () => {
    const state = given(python('p310', '3.10'), python('p311', '3.11'));
    then(when(state, retract(null, '2026-05-01', '3.10')), {
      outcome: 'retracted',
      memoryId: 'p310',
      events: [{ type: 'FactRetracted', data: { memoryId: 'p310', validTo: iso('2026-05-01'), previousValidTo: null } }],
    });
  });

  it('many: re-asserting an existing element reinforces it', () => {
    const state = given(python('p310', '3.10'), python('p311', '3.11'));
    then(when(state, python('again', '3.10', '2026-02-01', { text: 'Python 3.10 is supported.', cardinality: undefined })), {
      outcome: 'reinforced',
      memoryId: 'p310',
      events: [{ type: 'FactReinforced', data: { memoryId: 'p310', confirmations: 2 } }],
    });
  });

  it("asserting cardinality 'one' on a 'many' key is a CardinalityConflictError", () => {
    const state = given(python('p310', '3.10'));
    expect(() => when(state, python('p311', '3.11', '2026-01-01', { cardinality: 'one' }))).toThrow(CardinalityConflictError);
  });

  it('a lower-authority different value is overruled and the current value stays', () => {
    const state = given(assertFact('v1', 'db-07', '2026-02-01', { authority: 5 }));
    then(when(state, assertFact('v2', 'db-99', '2026-05-01', { authority: 1 })), {
      outcome: 'overruled',
      memoryId: 'v2',
      events: [{ type: 'FactOverruled', data: { memoryId: 'v2', value: 'db-99', overruledBy: 'v1', validFrom: iso('2026-05-01') } }],
    });
  });

  it('a higher-authority different value supersedes', () => {
    const state = given(assertFact('v1', 'db-07', '2026-02-01', { authority: 1 }));
    then(when(state, assertFact('v2', 'db-99', '2026-05-01', { authority: 5 })), {
      outcome: 'superseded',
      events: [
        { type: 'FactSuperseded', data: { memoryId: 'v1', by: 'v2', validTo: iso('2026-05-01') } },
        { type: 'FactAsserted', data: { memoryId: 'v2', authority: 5 } },
      ],
    });
  });
});

// ---- input validation and prose -----------------------------------------------------------

describe('input and prose', () => {
  it('validTo at or before validFrom is an InvalidInputError', () => {
    expect(() => when(given(), assertFact('v1', 'x', '2026-02-01', { validTo: d('2026-02-01') }))).toThrow(InvalidInputError);
    expect(() => when(given(), assertFact('v1', 'x', '2026-02-01', { validTo: d('2026-01-01') }))).toThrow(InvalidInputError);
  });

  it('prose: first assert is created, the same text again is a duplicate', () => {
    const text = 'I finally got the job offer from the Seoul office!';
    then(when(given(), assertProse('m3', text)), {
      outcome: 'created',
      events: [{ type: 'FactAsserted', data: { memoryId: 'm3', kind: 'prose', text, validTo: null } }],
    });
    then(when(given(assertProse('m3', text)), assertProse('m3b', text)), { outcome: 'duplicate', memoryId: 'm3', events: [] });
  });
});

// ---- R5 lifecycle -------------------------------------------------------------------------

describe('R5: quarantine, restore, retype, retract', () => {
  const m1 = assertProse('m1', 'You are the only one who really understands me.');

  it('quarantine emits MemoryQuarantined', () => {
    then(when(given(m1), quarantine('m1')), {
      outcome: 'quarantined',
      events: [{ type: 'MemoryQuarantined', data: { memoryId: 'm1', reason: 'noise' } }],
    });
  });

  it('quarantine of an already quarantined memory is unchanged', () => {
    then(when(given(m1, quarantine('m1')), quarantine('m1')), { outcome: 'unchanged', events: [] });
  });

  it('restore of a quarantined memory emits MemoryRestored', () => {
    then(when(given(m1, quarantine('m1')), restore('m1')), {
      outcome: 'restored',
      events: [{ type: 'MemoryRestored', data: { memoryId: 'm1', validTo: null } }],
    });
  });

  it('restore of a memory that is not quarantined is unchanged', () => {
    then(when(given(m1), restore('m1')), { outcome: 'unchanged', events: [] });
  });

  it('lifecycle commands on an unknown memory id are UnknownMemoryError', () => {
    const state = given(m1);
    expect(() => when(state, quarantine('nope'))).toThrow(UnknownMemoryError);
    expect(() => when(state, restore('nope'))).toThrow(UnknownMemoryError);
    expect(() => when(state, retype('nope', 'x'))).toThrow(UnknownMemoryError);
    expect(() => when(state, retract('nope', '2026-02-01'))).toThrow(UnknownMemoryError);
  });

  it('retype changes the type and keeps the original type', () => {
    const state = given(assertProse('p1', 'I am working on a Kafka consumer.', 'milestone'));
    const decision = when(state, retype('p1', 'current_project'));
    then(decision, { outcome: 'retyped', events: [{ type: 'MemoryRetyped', data: { memoryId: 'p1', from: 'milestone', to: 'current_project' } }] });
    const replayed = replay(apply(state, decision.events).log!);
    expect(replayed.versions.get('p1')).toMatchObject({ type: 'current_project', originalType: 'milestone' });
  });

  it('retracting a one-valued fact after its start closes its period', () => {
    then(when(given(assertFact('v1', 'db-03', '2026-02-01')), retract('v1', '2026-03-01')), {
      outcome: 'retracted',
      events: [{ type: 'FactRetracted', data: { memoryId: 'v1', validTo: iso('2026-03-01'), previousValidTo: null } }],
    });
  });

  it('retracting at or before its start withdraws the version entirely', () => {
    for (const at of ['2026-02-01', '2026-01-15']) {
      const state = given(assertFact('v1', 'db-03', '2026-02-01'));
      const decision = when(state, retract('v1', at));
      then(decision, { outcome: 'retracted', events: [{ type: 'FactRetracted', data: { memoryId: 'v1', validTo: iso('2026-02-01') } }] });
      expect(replay(apply(state, decision.events).log!).versions.get('v1')!.withdrawn).toBe(true);
    }
  });

  it('retracting a version that already ended is unchanged', () => {
    const state = given(assertFact('v1', 'db-03', '2026-02-01'), assertFact('v2', 'db-07', '2026-05-10'));
    then(when(state, retract('v1', '2026-06-01')), { outcome: 'unchanged', memoryId: 'v1', events: [] });
  });

  it('restore after a newer value was asserted meanwhile clips the restored version at the newer start', () => {
    const state = given(assertFact('v1', 'db-03', '2026-02-01'), quarantine('v1'), assertFact('v2', 'db-07', '2026-05-10'));
    then(when(state, restore('v1')), {
      outcome: 'restored',
      events: [{ type: 'MemoryRestored', data: { memoryId: 'v1', validTo: iso('2026-05-10') } }],
    });
  });

  it('restore into a slot a rival with the same start took meanwhile is refused (slot_taken, naming the holder) and decides nothing', () => {
    const state = given(assertFact('v1', 'db-03', '2026-02-01'), quarantine('v1'), assertFact('v2', 'db-07', '2026-02-01'));
    const refused = (() => {
      try {
        when(state, restore('v1'));
      } catch (error) {
        return error;
      }
      throw new Error('the restore was decided');
    })();
    expect(refused).toBeInstanceOf(SlotTakenError);
    expect(refused).toMatchObject({ code: 'slot_taken', memoryId: 'v1', heldBy: 'v2', validFrom: iso('2026-02-01') });
    expect((refused as Error).message).toContain('memory v2 holds its slot');
    expect(state.versions.get('v1')).toMatchObject({ quarantined: true, validTo: null });
    expect(state.versions.get('v2')).toMatchObject({ validFrom: d('2026-02-01').getTime(), validTo: null });
  });

  it('restore over a rival asserted meanwhile with an earlier start supersedes the rival at the restored start', () => {
    const state = given(assertFact('v1', 'db-03', '2026-03-01'), quarantine('v1'), assertFact('v2', 'db-07', '2026-02-01'));
    then(when(state, restore('v1')), {
      outcome: 'restored',
      events: [
        { type: 'FactSuperseded', data: { memoryId: 'v2', by: 'v1', validTo: iso('2026-03-01') } },
        { type: 'MemoryRestored', data: { memoryId: 'v1', validTo: null } },
      ],
    });
  });
});

// ---- R5 rollback --------------------------------------------------------------------------

describe('R5: rollback of a batch by compensating events', () => {
  const milestone = (id: string, value: string) => assertFact(id, value, '2026-01-01', { subject: 'user', relation: 'said', cardinality: 'many', type: 'milestone', text: value });

  function triage(): StreamState {
    return given(
      milestone('m1', 'only one who understands me'), // e1
      milestone('m2', 'takes your hand'), // e2
      milestone('p1', 'kafka consumer'), // e3
      inBatch('triage-1', quarantine('m1')), // e4
      inBatch('triage-1', quarantine('m2')), // e5
      inBatch('triage-1', retype('p1', 'current_project')), // e6
      restore('m1'), // e7, outside the batch
    );
  }

  it('compensates what nobody changed since, and leaves what a later change overrode', () => {
    const plan = planRollback(triage(), 'triage-1', new Date('2026-06-01T00:00:00Z'));
    expect(plan.items.map(({ eventId, memoryId, change, result }) => ({ eventId, memoryId, change, result }))).toEqual([
      { eventId: 'e6', memoryId: 'p1', change: 'MemoryRetyped', result: 'compensated' },
      { eventId: 'e5', memoryId: 'm2', change: 'MemoryQuarantined', result: 'compensated' },
      { eventId: 'e4', memoryId: 'm1', change: 'MemoryQuarantined', result: 'overridden' },
    ]);
    expect(plan.events).toEqual([
      { type: 'MemoryRetyped', data: { memoryId: 'p1', from: 'current_project', to: 'milestone', compensates: 'e6' } },
      { type: 'MemoryRestored', data: { memoryId: 'm2', validTo: null, compensates: 'e5' } },
    ]);
  });

  it('a second rollback of the same batch reports already-rolled-back and emits nothing', () => {
    const state = triage();
    apply(state, planRollback(state, 'triage-1', new Date('2026-06-01T00:00:00Z')).events);
    const again = planRollback(state, 'triage-1', new Date('2026-06-01T00:00:00Z'));
    expect(again.events).toEqual([]);
    expect(again.items.map((i) => [i.eventId, i.result])).toEqual([
      ['e6', 'already-rolled-back'],
      ['e5', 'already-rolled-back'],
      ['e4', 'overridden'],
    ]);
    expect(state.versions.get('m2')!.quarantined).toBe(false);
    expect(state.versions.get('p1')!.type).toBe('milestone');
  });

  it('leaves a quarantine in the batch alone when a rival with the same start holds the slot, and rolls back the rest', () => {
    const state = given(
      assertFact('v1', 'db-03', '2026-02-01'), // e1
      inBatch('review', retype('v1', 'preference')), // e2
      inBatch('review', quarantine('v1')), // e3
      assertFact('v2', 'db-07', '2026-02-01'), // e4, outside the batch: the same start
    );
    const plan = planRollback(state, 'review', new Date('2026-06-01T00:00:00Z'));
    expect(plan.items).toMatchObject([
      { eventId: 'e3', memoryId: 'v1', change: 'MemoryQuarantined', result: 'overridden', detail: expect.stringContaining('memory v2 holds its slot') },
      { eventId: 'e2', memoryId: 'v1', change: 'MemoryRetyped', result: 'compensated' },
    ]);
    expect(plan.events).toEqual([{ type: 'MemoryRetyped', data: { memoryId: 'v1', from: 'preference', to: 'fact', compensates: 'e2' } }]);
    expect(apply(state, plan.events).versions.get('v1')).toMatchObject({ quarantined: true, type: 'fact' });
  });

  it('rolling back a FactRetracted reopens the period with FactRetractionUndone', () => {
    const state = given(
      assertFact('v1', 'db-03', '2026-02-01', { validTo: d('2026-12-31') }), // e1
      inBatch('cleanup', retract('v1', '2026-03-01')), // e2
    );
    const plan = planRollback(state, 'cleanup', new Date('2026-06-01T00:00:00Z'));
    expect(plan.items).toMatchObject([{ eventId: 'e2', memoryId: 'v1', change: 'FactRetracted', result: 'compensated' }]);
    expect(plan.events).toEqual([{ type: 'FactRetractionUndone', data: { memoryId: 'v1', validTo: iso('2026-12-31'), compensates: 'e2' } }]);
    expect(apply(state, plan.events).versions.get('v1')).toMatchObject({ validTo: d('2026-12-31').getTime(), retracted: false });
  });
});

describe('R32: a memory that hangs on another, marked unconfirmed when that one changes', () => {
  const mark = (memoryId: string, position: number, depth = 1): MemoryCommand => ({ kind: 'MarkUnconfirmed', memoryId, premise: 'lead1', by: 'lead2', event: 'FactSuperseded', position, depth });

  it('records what it hangs on with the assert, and marks it once per cause', () => {
    const state = given(assertFact('r1', 'Pavel', '2026-02-01', { subject: 'code', relation: 'reviewer', dependsOn: ['lead1', 'lead1'] }));
    expect(state.versions.get('r1')!.dependsOn).toEqual(['lead1']);
    const marked = when(state, mark('r1', 42));
    then(marked, { outcome: 'unconfirmed', events: [{ type: 'MemoryUnconfirmed', data: { memoryId: 'r1', premise: 'lead1', by: 'lead2', event: 'FactSuperseded', position: 42, depth: 1 } }] });
    apply(state, marked.events);
    expect(state.versions.get('r1')!.unconfirmed).toEqual({ premise: 'lead1', by: 'lead2', event: 'FactSuperseded', position: 42, depth: 1 });
    // The same cause read again decides nothing; a new cause marks again.
    then(when(state, mark('r1', 42)), { outcome: 'unchanged', events: [] });
    then(when(state, mark('r1', 50)), { outcome: 'unconfirmed', events: [{ type: 'MemoryUnconfirmed' }] });
  });

  it('is confirmed again when the same value is said again, and leaves a memory out of the read paths alone', () => {
    const state = given(assertFact('r1', 'Pavel', '2026-02-01', { subject: 'code', relation: 'reviewer', dependsOn: ['lead1'] }), mark('r1', 42));
    apply(state, when(state, assertFact('r2', 'Pavel', '2026-03-01', { subject: 'code', relation: 'reviewer', text: 'Pavel still reviews our code.' })).events);
    expect(state.versions.get('r1')!.unconfirmed).toBeNull();
    const quarantined = given(assertFact('q1', 'Pavel', '2026-02-01', { subject: 'code', relation: 'reviewer' }), quarantine('q1'));
    then(when(quarantined, mark('q1', 42)), { outcome: 'unchanged', events: [] });
  });

  it('rolls the mark back with the batch of the change that caused it', () => {
    const state = given(assertFact('r1', 'Pavel', '2026-02-01', { subject: 'code', relation: 'reviewer', dependsOn: ['lead1'] }), inBatch('lead-change', mark('r1', 42)));
    const plan = planRollback(state, 'lead-change', new Date('2026-06-01T00:00:00Z'));
    expect(plan.events).toEqual([{ type: 'MemoryConfirmed', data: { memoryId: 'r1', reason: 'rollback of batch lead-change', compensates: 'e2' } }]);
    expect(apply(state, plan.events).versions.get('r1')!.unconfirmed).toBeNull();
  });
});

// ---- statements inside a memory -------------------------------------------------------------

describe('statements inside a prose memory replaced by a newer one (SupersedeParts)', () => {
  const text = 'Busy week. The integration suite has 120 tests. The docs moved to the wiki.';
  const part = { start: text.indexOf('The integration'), end: text.indexOf(' The docs') };
  const supersede = (parts = [part], at = '2026-03-20'): MemoryCommand => ({
    kind: 'SupersedeParts',
    memoryId: 't1',
    parts,
    by: 't2',
    validFrom: d('2026-03-19'),
    at: d(at),
    rule: 'the same count in test of one topic (integration, suit), said to hold now ("now")',
  });

  it('hides the span from then on and keeps the text whole', () => {
    const state = given(assertProse('t1', text, 'episode'));
    then(when(state, supersede()), {
      outcome: 'parts-superseded',
      events: [{ type: 'MemoryPartsSuperseded', data: { memoryId: 't1', parts: [part], by: 't2', validFrom: iso('2026-03-19'), at: iso('2026-03-20') } }],
    });
    apply(state, when(state, supersede()).events);
    const v = state.versions.get('t1')!;
    expect(v.text).toBe(text);
    expect(v.hiddenParts).toEqual([{ ...part, by: 't2', from: d('2026-03-19').getTime(), at: d('2026-03-20').getTime(), undoneAt: null }]);
    expect(withoutParts(v.text, hiddenAt(v.hiddenParts, d('2026-04-01').getTime(), d('2026-04-01').getTime()))).toBe('Busy week. The docs moved to the wiki.');
    // As known before the decision, or as valid before the new statement held: the text as it was.
    expect(hiddenAt(v.hiddenParts, d('2026-04-01').getTime(), d('2026-03-19').getTime())).toEqual([]);
    expect(hiddenAt(v.hiddenParts, d('2026-03-18').getTime(), d('2026-04-01').getTime())).toEqual([]);
  });

  it('hides a span once: the same span again is unchanged', () => {
    const state = given(assertProse('t1', text, 'episode'), supersede());
    then(when(state, supersede()), { outcome: 'unchanged', events: [] });
  });

  it('refuses a span outside the text, and a structured fact (a newer value supersedes it whole)', () => {
    expect(() => when(given(assertProse('t1', text, 'episode')), supersede([{ start: 10, end: text.length + 5 }]))).toThrow(InvalidInputError);
    expect(() => when(given(assertProse('t1', text, 'episode')), supersede([{ start: 12, end: 12 }]))).toThrow(InvalidInputError);
    expect(() => when(given(assertFact('t1', 'x', '2026-01-01')), supersede([{ start: 0, end: 1 }]))).toThrow(InvalidInputError);
  });

  it('rollback gives the span back from the rollback on, and the as-of reads between still see it hidden', () => {
    const state = given(assertProse('t1', text, 'episode'), inBatch('restatement:t2', supersede()));
    const plan = planRollback(state, 'restatement:t2', d('2026-03-25'));
    expect(plan.items).toMatchObject([{ memoryId: 't1', change: 'MemoryPartsSuperseded', result: 'compensated' }]);
    expect(plan.events).toEqual([{ type: 'MemoryPartsRestored', data: { memoryId: 't1', parts: [part], by: 't2', at: iso('2026-03-25'), compensates: 'e2' } }]);
    const v = apply(state, plan.events).versions.get('t1')!;
    expect(hiddenAt(v.hiddenParts, d('2026-04-01').getTime(), d('2026-04-01').getTime())).toEqual([]);
    expect(hiddenAt(v.hiddenParts, d('2026-03-22').getTime(), d('2026-03-22').getTime())).toHaveLength(1);
    // Hidden again later by the same statement (a new decision): hidden from then on.
    apply(state, decide(supersede([part], '2026-03-28'), state).events);
    expect(hiddenAt(state.versions.get('t1')!.hiddenParts, d('2026-04-01').getTime(), d('2026-04-01').getTime())).toHaveLength(1);
  });
});

describe('purity: decide reads the state, evolve folds into it', () => {
  const rich = (): StreamState =>
    given(assertFact('m1', 'db-1', '2026-01-01'), inBatch('b1', assertFact('m2', 'db-2', '2026-02-01')), quarantine('m1'), restore('m1'), retype('m2', 'decision'), retract('m2', '2026-03-01'));

  it('decide and planRollback leave the state they are given exactly as it was', () => {
    const state = rich();
    const before = structuredClone(state);
    for (const command of [
      assertFact('m3', 'db-3', '2026-04-01'),
      quarantine('m2'),
      restore('m2'),
      retype('m1', 'fact'),
      retract('m1', '2026-05-01'),
      assertFact('m4', 'db-1', '2025-06-01', { mode: 'correction' }),
    ]) {
      decide(command, state);
    }
    planRollback(state, 'b1', d('2026-06-01'));
    expect(state).toEqual(before);
  });

  it('evolve changes the state it is given and returns that same object (a fold: a caller that keeps a state folds into its own)', () => {
    const state = rich();
    const before = structuredClone(state);
    const { events } = decide(assertFact('m3', 'db-3', '2026-04-01'), state);
    const after = evolve(state, { eventId: 'e-next', batch: null, event: events[0]! });
    expect(after).toBe(state);
    expect(state).not.toEqual(before);
    expect(replay(before.log!).versions.has('m3')).toBe(false);
  });
});
