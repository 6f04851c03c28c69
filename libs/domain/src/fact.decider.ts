/**
 * The decider of a memory stream: `decide(command, state) → events`, pure (it never changes the
 * state it is given; the state and its fold, `evolve`, are fact.state.ts's). One stream holds every version of one fact key
 * (or the one version of a prose memory), so every rule of R1–R5 is decided here against
 * the whole timeline of the key.
 *
 * Timeline: the versions that are in the read paths (not quarantined, corrected, withdrawn or
 * overruled), each valid over a half-open period [validFrom, validTo). For a `one` key the
 * timeline is one sequence without overlap; for a `many` key each value has its own.
 */
import { CardinalityConflictError, IllegalLifecycleError, InvalidInputError, SlotTakenError, UnknownMemoryError } from './errors';
import type { AssertMemory, ConfirmMemory, MarkUnconfirmed, MemoryCommand, Outcome, QuarantineMemory, RestoreMemory, RetractMemory, RetypeMemory, SupersedeParts } from './fact.commands';
import type { MemoryEvent } from './fact.events';
import { aspectOf, evolve, inTimeline, replay, statusOf, type StreamState, type VersionState } from './fact.state';
import type { MemoryFields } from './memory';
import { normalizeTerm, sameValue } from './keys';

const OPEN = Number.POSITIVE_INFINITY;
const end = (v: VersionState): number => v.validTo ?? OPEN;
const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number): string | null => (ms === OPEN ? null : iso(ms));

export interface Decision {
  events: MemoryEvent[];
  outcome: Outcome;
  /** The memory the command was about (the new version, the reinforced one, the target). */
  memoryId: string;
}

export function decide(command: MemoryCommand, state: StreamState): Decision {
  switch (command.kind) {
    case 'AssertMemory':
      return decideAssert(command, state);
    case 'RetractMemory':
      return decideRetract(command, state);
    case 'QuarantineMemory':
      return decideQuarantine(command, state);
    case 'RestoreMemory':
      return decideRestore(command, state);
    case 'RetypeMemory':
      return decideRetype(command, state);
    case 'SupersedeParts':
      return decideSupersedeParts(command, state);
    case 'MarkUnconfirmed':
      return decideUnconfirmed(command, state);
    case 'ConfirmMemory':
      return decideConfirm(command, state);
  }
}

/**
 * Confirmed by someone who knows (a host, a user through it): a memory marked unconfirmed holds
 * after all. Only an active memory with a mark; one without is unchanged (confirming twice is
 * harmless), one out of the read paths is an illegal lifecycle change.
 */
function decideConfirm(cmd: ConfirmMemory, state: StreamState): Decision {
  const v = target(state, cmd.memoryId);
  const status = statusOf(v, OPEN);
  if (status !== 'active') throw new IllegalLifecycleError(`memory ${v.memoryId} is ${status}, not in the read paths: nothing to confirm`);
  if (!v.unconfirmed) return { events: [], outcome: 'unchanged', memoryId: v.memoryId };
  return { events: [{ type: 'MemoryConfirmed', data: { memoryId: v.memoryId, reason: cmd.reason } }], outcome: 'confirmed', memoryId: v.memoryId };
}

/**
 * A memory this one hangs on changed: it is no longer confirmed. Once per cause (the same change
 * read again by the cascade after a crash decides nothing); a memory out of the read paths already
 * (quarantined, retired) is left as it is.
 */
function decideUnconfirmed(cmd: MarkUnconfirmed, state: StreamState): Decision {
  const v = target(state, cmd.memoryId);
  if (statusOf(v, OPEN) !== 'active' || (v.unconfirmed && v.unconfirmed.premise === cmd.premise && v.unconfirmed.position === cmd.position)) {
    return { events: [], outcome: 'unchanged', memoryId: v.memoryId };
  }
  const data = { memoryId: v.memoryId, premise: cmd.premise, by: cmd.by, event: cmd.event, position: cmd.position, depth: cmd.depth };
  return { events: [{ type: 'MemoryUnconfirmed', data }], outcome: 'unconfirmed', memoryId: v.memoryId };
}

/** Parts of a prose memory hidden by a newer one: only spans inside its text, only those not hidden already. */
function decideSupersedeParts(cmd: SupersedeParts, state: StreamState): Decision {
  const v = target(state, cmd.memoryId);
  if (v.kind !== 'prose' && !(v.relation ?? '').includes('…')) throw new InvalidInputError([{ path: 'parts', message: `memory ${v.memoryId} is a fact: a newer value supersedes it whole` }]);
  for (const p of cmd.parts) {
    if (!(Number.isInteger(p.start) && Number.isInteger(p.end) && p.start >= 0 && p.end > p.start && p.end <= v.text.length)) {
      throw new InvalidInputError([{ path: 'parts', message: `span ${p.start}–${p.end} is not inside memory ${v.memoryId}'s text (${v.text.length} characters)` }]);
    }
  }
  const live = v.hiddenParts.filter((h) => h.undoneAt === null);
  const parts = cmd.parts.filter((p) => !live.some((h) => h.start <= p.start && h.end >= p.end));
  if (parts.length === 0) return { events: [], outcome: 'unchanged', memoryId: v.memoryId };
  const data = { memoryId: v.memoryId, parts, by: cmd.by, validFrom: cmd.validFrom.toISOString(), at: cmd.at.toISOString(), rule: cmd.rule };
  return { events: [{ type: 'MemoryPartsSuperseded', data }], outcome: 'parts-superseded', memoryId: v.memoryId };
}

/**
 * The versions that compete with one of this value: all of the key (`one`) or that value's (`many`).
 * A version closed at its own start (a stale view, see decideAssert) holds at no instant: none.
 */
function rivals(state: StreamState, value: string | null, exclude?: string): VersionState[] {
  return [...state.versions.values()].filter(
    (v) => v.memoryId !== exclude && inTimeline(v) && end(v) > v.validFrom && (state.cardinality !== 'many' || (v.value !== null && value !== null && sameValue(v.value, value))),
  );
}

function coveringAt(timeline: VersionState[], at: number): VersionState | undefined {
  return timeline.find((v) => v.validFrom <= at && at < end(v));
}

function nextStartAfter(timeline: VersionState[], at: number): number {
  return timeline.reduce((min, v) => (v.validFrom > at && v.validFrom < min ? v.validFrom : min), OPEN);
}

function decideAssert(cmd: AssertMemory, state: StreamState): Decision {
  if (state.cardinality && cmd.cardinality && state.cardinality !== cmd.cardinality) {
    throw new CardinalityConflictError(state.cardinality, cmd.cardinality);
  }
  const cardinality = state.cardinality ?? cmd.cardinality ?? 'one';
  const from = cmd.validFrom.getTime();
  const explicitEnd = cmd.validTo ? cmd.validTo.getTime() : OPEN;
  if (explicitEnd <= from) {
    throw new InvalidInputError([{ path: 'validTo', message: 'must be later than validFrom' }]);
  }
  // When it was said: recorded only when the command knows (old commands write nothing of it);
  // and what it hangs on, only when it hangs on something. Both go on every event that asserts it.
  const said = {
    ...(cmd.saidAt ? { saidAt: cmd.saidAt.toISOString(), ...(cmd.startStated === false ? { startUnknown: true as const } : {}) } : {}),
    ...(cmd.dependsOn && cmd.dependsOn.length > 0 ? { dependsOn: [...new Set(cmd.dependsOn)] } : {}),
  };
  // Field by field, for the reason given in evolve.
  const fields: MemoryFields = {
    memoryId: cmd.memoryId,
    kind: cmd.memoryKind,
    subject: cmd.subject,
    relation: cmd.relation,
    scope: cmd.scope,
    value: cmd.value,
    text: cmd.text,
    type: cmd.type,
    speaker: cmd.speaker,
    source: cmd.source,
    authority: cmd.authority,
    cardinality,
    core: cmd.core,
  };

  // Prose: one memory per distinct text; saying it again changes nothing.
  if (cmd.memoryKind === 'prose') {
    const existing = [...state.versions.values()][0];
    if (existing) return { events: [], outcome: 'duplicate', memoryId: existing.memoryId };
    return {
      events: [{ type: 'FactAsserted', data: { ...fields, ...said, validFrom: iso(from), validTo: isoOrNull(explicitEnd) } }],
      outcome: 'created',
      memoryId: cmd.memoryId,
    };
  }

  const value = cmd.value ?? '';
  const exact = [...state.versions.values()].find((v) => !v.overruled && v.validFrom === from && sameValue(v.value ?? '', value) && normalizeTerm(v.text) === normalizeTerm(cmd.text));
  if (exact) return { events: [], outcome: 'duplicate', memoryId: exact.memoryId };

  // A later statement wins over a present-tense one whose start is unknown: "I live in Seattle",
  // then "we moved to Portland last weekend" dates the move before the first was said, yet the
  // first was only the user's view before they told of it. Each such rival (another value, said
  // before this statement, starting after it, within its period) closes at its own start: as
  // known now it held at no instant; it leaves the timeline, and this statement runs on.
  const saidAt = cmd.saidAt ? cmd.saidAt.getTime() : from;
  const all = rivals({ ...state, cardinality }, value);
  const stale = all.filter(
    (v) => v.startUnknown && v.saidAt !== null && v.saidAt < saidAt && v.validFrom > from && v.validFrom < explicitEnd && cmd.authority >= v.authority && !sameValue(v.value ?? '', value),
  );
  const timeline = stale.length ? all.filter((v) => !stale.includes(v)) : all;
  const covering = coveringAt(timeline, from);
  if (covering && sameValue(covering.value ?? '', value)) {
    if (normalizeTerm(covering.text) === normalizeTerm(cmd.text)) {
      return { events: [], outcome: 'duplicate', memoryId: covering.memoryId };
    }
    return {
      events: [
        {
          type: 'FactReinforced',
          data: {
            memoryId: covering.memoryId,
            text: cmd.text,
            speaker: cmd.speaker,
            source: cmd.source,
            confirmations: covering.confirmations + 1,
          },
        },
      ],
      outcome: 'reinforced',
      memoryId: covering.memoryId,
    };
  }

  if (covering && cmd.authority < covering.authority) {
    return {
      events: [
        {
          type: 'FactOverruled',
          data: { ...fields, ...said, validFrom: iso(from), validTo: isoOrNull(explicitEnd), overruledBy: covering.memoryId },
        },
      ],
      outcome: 'overruled',
      memoryId: cmd.memoryId,
    };
  }

  // The same rule the other way round (a chat imported out of order): a statement that did not say
  // when it began, covered by a version said after it, is the stale view itself. It is recorded and
  // closed at its own start; the version said later stays.
  if (covering && cmd.startStated === false && covering.saidAt !== null && covering.saidAt > saidAt) {
    return {
      events: [
        { type: 'FactAsserted', data: { ...fields, ...said, validFrom: iso(from), validTo: isoOrNull(explicitEnd) } },
        { type: 'FactSuperseded', data: { memoryId: cmd.memoryId, by: covering.memoryId, validTo: iso(from) } },
      ],
      outcome: 'filled-history',
      memoryId: cmd.memoryId,
    };
  }

  const events: MemoryEvent[] = stale.map((v) => ({ type: 'FactSuperseded', data: { memoryId: v.memoryId, by: cmd.memoryId, validTo: iso(v.validFrom) } }));
  let start = from;
  let outcome: Outcome = stale.length ? 'superseded' : 'created';
  if (covering) {
    // A correction, or a new value from the very same moment, means the old one never held.
    if (cmd.mode === 'correction' || covering.validFrom === from) {
      events.push({ type: 'FactCorrected', data: { memoryId: covering.memoryId, by: cmd.memoryId } });
      start = Math.min(from, covering.validFrom);
      outcome = 'corrected';
    } else {
      events.push({ type: 'FactSuperseded', data: { memoryId: covering.memoryId, by: cmd.memoryId, validTo: iso(from) } });
      outcome = 'superseded';
    }
  }
  const rest = covering ? timeline.filter((v) => v !== covering) : timeline;
  const next = nextStartAfter(rest, start);
  if (!covering && next !== OPEN) outcome = 'filled-history';
  const stop = Math.min(explicitEnd, next);
  events.push({ type: 'FactAsserted', data: { ...fields, ...said, validFrom: iso(start), validTo: isoOrNull(stop) } });
  return { events, outcome, memoryId: cmd.memoryId };
}

function target(state: StreamState, memoryId: string): VersionState {
  const v = state.versions.get(memoryId);
  if (!v) throw new UnknownMemoryError(memoryId);
  return v;
}

function decideRetract(cmd: RetractMemory, state: StreamState): Decision {
  const at = cmd.validFrom.getTime();
  let v: VersionState | undefined;
  if (cmd.memoryId) {
    v = target(state, cmd.memoryId);
  } else {
    const value = cmd.value;
    if (value === null) throw new InvalidInputError([{ path: 'value', message: 'a retract needs a memory id or a value' }]);
    const candidates = [...state.versions.values()].filter((c) => inTimeline(c) && sameValue(c.value ?? '', value));
    v = coveringAt(candidates, at) ?? candidates.filter((c) => c.validFrom > at).sort((a, b) => a.validFrom - b.validFrom)[0];
    if (!v) throw new IllegalLifecycleError(`no version of this key holds the value '${value}' at or after ${iso(at)}`);
  }
  if (!inTimeline(v)) {
    throw new IllegalLifecycleError(`memory ${v.memoryId} is not in the read paths (quarantined, corrected or overruled); nothing to retract`);
  }
  if (end(v) <= at) return { events: [], outcome: 'unchanged', memoryId: v.memoryId };
  return {
    events: [
      {
        type: 'FactRetracted',
        data: {
          memoryId: v.memoryId,
          validTo: iso(Math.max(at, v.validFrom)),
          previousValidTo: v.validTo === null ? null : iso(v.validTo),
          reason: cmd.reason,
          ...(cmd.by ? { by: cmd.by } : {}),
        },
      },
    ],
    outcome: 'retracted',
    memoryId: v.memoryId,
  };
}

function decideQuarantine(cmd: QuarantineMemory, state: StreamState, compensates?: string): Decision {
  const v = target(state, cmd.memoryId);
  if (v.quarantined) return { events: [], outcome: 'unchanged', memoryId: v.memoryId };
  const data = compensates ? { memoryId: v.memoryId, reason: cmd.reason, compensates } : { memoryId: v.memoryId, reason: cmd.reason };
  return { events: [{ type: 'MemoryQuarantined', data }], outcome: 'quarantined', memoryId: v.memoryId };
}

/** Whether a fact goes back into its key's timeline when it is restored (a corrected, withdrawn or overruled one stays out). */
const rejoinsTimeline = (v: VersionState): boolean => v.kind === 'fact' && !v.corrected && !v.withdrawn && !v.overruled;

/**
 * The version that holds a quarantined fact's slot: a rival of its key with the very same start,
 * which a restore can neither supersede (it is not older) nor clip around (nothing would be left).
 */
function slotHolder(state: StreamState, v: VersionState): VersionState | undefined {
  if (!v.quarantined || !rejoinsTimeline(v)) return undefined;
  const covering = coveringAt(rivals(state, v.value, v.memoryId), v.validFrom);
  return covering && covering.validFrom === v.validFrom ? covering : undefined;
}

/**
 * Restore puts the version back where its period says, as an update would: a rival covering
 * its start is superseded there, a later rival clips it. A rival with the same start holds the
 * slot: the restore is refused (SlotTakenError) rather than bring the memory back valid at no time.
 */
function decideRestore(cmd: RestoreMemory, state: StreamState, compensates?: string): Decision {
  const v = target(state, cmd.memoryId);
  if (!v.quarantined) return { events: [], outcome: 'unchanged', memoryId: v.memoryId };
  const holder = slotHolder(state, v);
  if (holder) throw new SlotTakenError(v.memoryId, holder.memoryId, iso(v.validFrom));
  const events: MemoryEvent[] = [];
  let stop = end(v);
  if (rejoinsTimeline(v)) {
    const timeline = rivals(state, v.value, v.memoryId);
    const covering = coveringAt(timeline, v.validFrom);
    if (covering) {
      events.push({ type: 'FactSuperseded', data: { memoryId: covering.memoryId, by: v.memoryId, validTo: iso(v.validFrom) } });
    }
    stop = Math.min(stop, nextStartAfter(timeline, v.validFrom));
  }
  const restored = { memoryId: v.memoryId, validTo: isoOrNull(stop), ...(cmd.reason ? { reason: cmd.reason } : {}) };
  events.push({ type: 'MemoryRestored', data: compensates ? { ...restored, compensates } : restored });
  return { events, outcome: 'restored', memoryId: v.memoryId };
}

function decideRetype(cmd: RetypeMemory, state: StreamState, compensates?: string): Decision {
  const v = target(state, cmd.memoryId);
  if (v.type === cmd.type) return { events: [], outcome: 'unchanged', memoryId: v.memoryId };
  const data = { memoryId: v.memoryId, from: v.type, to: cmd.type, ...(cmd.reason ? { reason: cmd.reason } : {}) };
  return { events: [{ type: 'MemoryRetyped', data: compensates ? { ...data, compensates } : data }], outcome: 'retyped', memoryId: v.memoryId };
}

export const ROLLBACK_RESULTS = ['compensated', 'overridden', 'already-rolled-back', 'not-compensable'] as const;
export type RollbackResult = (typeof ROLLBACK_RESULTS)[number];

export interface RollbackItem {
  eventId: string;
  memoryId: string;
  change: MemoryEvent['type'];
  result: RollbackResult;
  detail: string;
}

export interface RollbackPlan {
  events: MemoryEvent[];
  items: RollbackItem[];
}

/**
 * Undo, newest first, every change in this stream that carried `batch`, by compensating
 * events. A change that a later change outside the batch has overridden is left alone and
 * reported, so a rollback never undoes someone else's newer decision. `now` dates what a
 * compensation records of its own time (parts given back).
 */
export function planRollback(state: StreamState, batch: string, now: Date): RollbackPlan {
  const log = state.log;
  if (!log) throw new Error('planRollback needs the stream state with its events (this one was folded without them)');
  const inBatch = log.filter((e) => e.batch === batch);
  const batchIds = new Set(inBatch.map((e) => e.eventId));
  const working = replay(log);
  const events: MemoryEvent[] = [];
  const items: RollbackItem[] = [];
  for (const recorded of [...inBatch].reverse()) {
    const { event } = recorded;
    const memoryId = event.data.memoryId;
    const item = (result: RollbackResult, detail: string): void => {
      items.push({ eventId: recorded.eventId, memoryId, change: event.type, result, detail });
    };
    if (working.compensated.has(recorded.eventId)) {
      item('already-rolled-back', 'an earlier rollback already compensated this change');
      continue;
    }
    const aspect = aspectOf(event);
    if (!aspect || event.type === 'FactSuperseded' || event.type === 'FactCorrected') {
      item('not-compensable', `${event.type} is not a lifecycle change that rollback undoes; assert or retract instead`);
      continue;
    }
    const position = log.indexOf(recorded);
    const overriddenBy = log.slice(position + 1).find((later) => {
      if (batchIds.has(later.eventId)) return false;
      const c = 'compensates' in later.event.data ? later.event.data.compensates : undefined;
      if (c && batchIds.has(c)) return false;
      if (aspect === 'validity' && later.event.type === 'FactAsserted') return true;
      if (aspect === 'parts') return false; // another statement's parts are spans of their own
      return later.event.data.memoryId === memoryId && aspectOf(later.event) === aspect;
    });
    if (overriddenBy) {
      item('overridden', `a later ${overriddenBy.event.type} (event ${overriddenBy.eventId}) changed the same memory; left as it is`);
      continue;
    }
    let decision: Decision;
    switch (event.type) {
      case 'MemoryQuarantined': {
        // A rival with the same start holds the slot: the memory stays quarantined
        // (restoring it would leave it valid at no time), and the rest of the batch is rolled back.
        const quarantined = working.versions.get(memoryId);
        const holder = quarantined && slotHolder(working, quarantined);
        if (holder) {
          item('overridden', `memory ${holder.memoryId} holds its slot now (a rival with the same start); left quarantined`);
          continue;
        }
        decision = decideRestore({ kind: 'RestoreMemory', memoryId }, working, recorded.eventId);
        break;
      }
      case 'MemoryRestored':
        decision = decideQuarantine({ kind: 'QuarantineMemory', memoryId, reason: `rollback of batch ${batch}` }, working, recorded.eventId);
        break;
      case 'MemoryRetyped':
        decision = decideRetype({ kind: 'RetypeMemory', memoryId, type: event.data.from }, working, recorded.eventId);
        break;
      case 'MemoryUnconfirmed':
        decision = { events: [{ type: 'MemoryConfirmed', data: { memoryId, reason: `rollback of batch ${batch}`, compensates: recorded.eventId } }], outcome: 'confirmed', memoryId };
        break;
      case 'MemoryPartsSuperseded': {
        const d = event.data;
        decision = {
          events: [{ type: 'MemoryPartsRestored', data: { memoryId, parts: d.parts, by: d.by, at: now.toISOString(), compensates: recorded.eventId } }],
          outcome: 'restored',
          memoryId,
        };
        break;
      }
      case 'FactRetracted': {
        // Reopen the period as far as no rival has taken it meanwhile, like a restore.
        const v = working.versions.get(memoryId)!;
        const timeline = v.kind === 'fact' ? rivals(working, v.value, memoryId) : [];
        if (coveringAt(timeline, v.validFrom)) {
          item('overridden', 'another version now holds the start of its period; left retracted');
          continue;
        }
        const previous = event.data.previousValidTo === null ? OPEN : Date.parse(event.data.previousValidTo);
        const stop = Math.min(previous, nextStartAfter(timeline, v.validFrom));
        decision = {
          events: [{ type: 'FactRetractionUndone', data: { memoryId, validTo: isoOrNull(stop), compensates: recorded.eventId, ...(event.data.by ? { by: event.data.by } : {}) } }],
          outcome: 'restored',
          memoryId,
        };
        break;
      }
      default:
        item('not-compensable', `${event.type} cannot be rolled back`);
        continue;
    }
    for (const e of decision.events) evolve(working, { eventId: `pending-${events.length}`, batch: null, event: e });
    events.push(...decision.events);
    item('compensated', decision.events.length ? decision.events.map((e) => e.type).join(', ') : 'already in that state');
  }
  return { events, items };
}
