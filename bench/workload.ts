/**
 * A realistic, valid fact workload, generated in memory with the pure domain decider: every
 * event comes out of `decide(AssertMemory)` against the key's current state and is folded in
 * with `evolve`, so what the benchmark appends is exactly what the ledger itself would append
 * (FactAsserted for new keys and new set members, FactSuperseded + FactAsserted when a newer
 * value of a `one` key takes over), with correct expected versions.
 */
import { randomUUID } from 'node:crypto';
import { type AssertMemory, type Cardinality, decide, evolve, factStreamId, initialState, type MemoryEvent, type StreamState } from '@factledger/domain';
import type { StreamAppend } from '@factledger/store';
import { Rng } from './stats';

const DAY = 86_400_000;

interface Relation {
  name: string;
  cardinality: Cardinality;
  values: readonly string[];
}

const CITIES = ['Lisbon', 'Berlin', 'Paris', 'Madrid', 'Oslo', 'Warsaw', 'Dublin', 'Vienna', 'Prague', 'Rome', 'Austin', 'Toronto', 'Tokyo', 'Seoul', 'Nairobi', 'Lima'];
const COMPANIES = ['Acme Corp', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark Industries', 'Wayne Enterprises', 'Tyrell', 'Cyberdyne', 'Soylent'];
const LANGUAGES = ['TypeScript', 'Rust', 'Go', 'Python', 'Kotlin', 'Elixir', 'Haskell', 'OCaml', 'Zig', 'Swift'];
const ROLES = ['engineer', 'senior engineer', 'staff engineer', 'engineering manager', 'product manager', 'designer', 'data scientist', 'CTO'];
const TEAMS = ['platform', 'payments', 'search', 'growth', 'infra', 'mobile', 'data', 'security'];
const ZONES = ['Europe/Lisbon', 'Europe/Berlin', 'America/New_York', 'America/Los_Angeles', 'Asia/Tokyo', 'Africa/Nairobi', 'UTC'];
const EDITORS = ['vim', 'emacs', 'VS Code', 'IntelliJ', 'Helix', 'Zed', 'Sublime Text'];
const HOBBIES = ['climbing', 'chess', 'running', 'piano', 'photography', 'cycling', 'cooking', 'surfing', 'gardening', 'painting', 'hiking', 'sailing'];
const SPOKEN = ['English', 'Portuguese', 'German', 'French', 'Spanish', 'Japanese', 'Polish', 'Italian', 'Korean', 'Swahili'];
const ALLERGIES = ['peanuts', 'shellfish', 'pollen', 'penicillin', 'gluten', 'lactose', 'cats', 'dust'];

/** Ten relations per subject: seven single-valued (`one`), three sets (`many`). */
export const RELATIONS: readonly Relation[] = [
  { name: 'lives in', cardinality: 'one', values: CITIES },
  { name: 'works at', cardinality: 'one', values: COMPANIES },
  { name: 'prefers language', cardinality: 'one', values: LANGUAGES },
  { name: 'has role', cardinality: 'one', values: ROLES },
  { name: 'is on team', cardinality: 'one', values: TEAMS },
  { name: 'is in timezone', cardinality: 'one', values: ZONES },
  { name: 'uses editor', cardinality: 'one', values: EDITORS },
  { name: 'enjoys', cardinality: 'many', values: HOBBIES },
  { name: 'speaks', cardinality: 'many', values: SPOKEN },
  { name: 'is allergic to', cardinality: 'many', values: ALLERGIES },
];

export interface FactKeyState {
  index: number;
  subject: string;
  relation: Relation;
  streamId: string;
  /** Stream version after the last event (-1: no stream yet). */
  version: number;
  state: StreamState;
  /** Start of the newest version's valid period (ms). */
  lastFrom: number;
  /** Value of the newest version. */
  lastValue: string;
  /** Id of the first version: a primary key to look up in fl_memories. */
  firstMemoryId: string | null;
}

export interface WorkloadCounts {
  keys: number;
  asserts: number;
  created: number;
  superseded: number;
  setMembers: number;
  events: number;
  payloadBytes: number;
}

export interface PlannedAssert {
  key: FactKeyState;
  value: string;
  validFrom: Date;
}

/** Valid-time base of the workload: facts start between 2020 and 2025 and change later. */
export const VALID_BASE = Date.parse('2020-01-01T00:00:00Z');

export class FactWorkload {
  readonly keys: FactKeyState[] = [];
  readonly counts: WorkloadCounts = { keys: 0, asserts: 0, created: 0, superseded: 0, setMembers: 0, events: 0, payloadBytes: 0 };
  private readonly rng: Rng;

  constructor(seed = 42) {
    this.rng = new Rng(seed);
  }

  /** Subject `person-NNNNN`, ten relations each: key i is (person-⌊i/10⌋, RELATIONS[i mod 10]). */
  private newKey(): FactKeyState {
    const index = this.keys.length;
    const subject = `person-${String(Math.floor(index / RELATIONS.length)).padStart(6, '0')}`;
    const relation = RELATIONS[index % RELATIONS.length]!;
    const key: FactKeyState = {
      index,
      subject,
      relation,
      streamId: factStreamId({ subject, relation: relation.name, scope: {} }),
      version: -1,
      state: initialState(),
      lastFrom: 0,
      lastValue: '',
      firstMemoryId: null,
    };
    this.keys.push(key);
    this.counts.keys++;
    return key;
  }

  /** A new key, or a change to an existing one: a later value of a `one` key, a new set member. */
  plan(changeShare: number, exclude?: Set<FactKeyState>): PlannedAssert {
    const change = this.keys.length > 0 && this.rng.chance(changeShare);
    if (change) {
      for (let tries = 0; tries < 8; tries++) {
        const key = this.keys[this.rng.int(this.keys.length)]!;
        if (exclude?.has(key)) continue;
        const value = this.freshValue(key);
        if (value === null) continue;
        return { key, value, validFrom: new Date(key.lastFrom + (1 + this.rng.int(400)) * DAY) };
      }
    }
    const key = this.newKey();
    return { key, value: this.rng.pick(key.relation.values), validFrom: new Date(VALID_BASE + this.rng.int(5 * 365) * DAY) };
  }

  /** A value the key does not hold now (`one`) or not yet at all (`many`); null when none is left. */
  private freshValue(key: FactKeyState): string | null {
    const taken = new Set<string>();
    if (key.relation.cardinality === 'many') for (const v of key.state.versions.values()) taken.add(v.value ?? '');
    else taken.add(key.lastValue);
    const free = key.relation.values.filter((v) => !taken.has(v));
    return free.length ? this.rng.pick(free) : null;
  }

  /** Input of `Ledger.assert` for a planned assert (the ledger decides it itself). */
  ledgerInput(p: PlannedAssert): Record<string, unknown> {
    return {
      subject: p.key.subject,
      relation: p.key.relation.name,
      value: p.value,
      text: this.text(p),
      validFrom: p.validFrom.toISOString(),
      cardinality: p.key.relation.cardinality,
      source: `chat:session-${10_000 + this.rng.int(90_000)}`,
    };
  }

  /** After a Ledger.assert of `p` succeeded: keep the in-memory copy of the key in step (no events). */
  noteAsserted(p: PlannedAssert): void {
    p.key.lastFrom = Math.max(p.key.lastFrom, p.validFrom.getTime());
    p.key.lastValue = p.value;
  }

  private text(p: PlannedAssert): string {
    return `${p.key.subject} ${p.key.relation.name} ${p.value} (mentioned by the user while planning next quarter's work)`;
  }

  /** Decides the assert with the domain decider, folds the events into the key, returns them. */
  decideAndApply(p: PlannedAssert): MemoryEvent[] {
    const { key } = p;
    const command: AssertMemory = {
      kind: 'AssertMemory',
      memoryId: randomUUID(),
      memoryKind: 'fact',
      subject: key.subject,
      relation: key.relation.name,
      scope: {},
      value: p.value,
      text: this.text(p),
      type: 'fact',
      speaker: 'user',
      source: `chat:session-${10_000 + this.rng.int(90_000)}`,
      authority: 0,
      cardinality: key.relation.cardinality,
      core: false,
      validFrom: p.validFrom,
      validTo: null,
      mode: 'update',
    };
    const decision = decide(command, key.state);
    for (const event of decision.events) {
      evolve(key.state, { eventId: '', batch: null, event });
      this.counts.events++;
      this.counts.payloadBytes += JSON.stringify(event.data).length;
    }
    key.state.log = null; // only rollback needs the log; keep memory flat
    this.counts.asserts++;
    if (decision.outcome === 'superseded') this.counts.superseded++;
    else if (key.version < 0) this.counts.created++;
    else this.counts.setMembers++;
    key.firstMemoryId ??= command.memoryId;
    this.noteAsserted(p);
    return decision.events;
  }

  /**
   * One append call's worth of events: asserts over distinct keys until `events` events, each
   * key one StreamAppend with the version it was read at. Returns the appends and the keys'
   * versions are advanced (the caller must append them, in order, before the next batch).
   */
  batch(events: number, changeShare: number): StreamAppend[] {
    const appends: StreamAppend[] = [];
    const used = new Set<FactKeyState>();
    let n = 0;
    while (n < events) {
      // A supersession takes two events; with one slot left, make it a new key.
      let p = this.plan(events - n >= 2 ? changeShare : 0, used);
      if (used.has(p.key)) p = this.plan(0);
      const decided = this.decideAndApply(p);
      if (decided.length === 0) continue;
      used.add(p.key);
      appends.push({
        streamId: p.key.streamId,
        expectedVersion: p.key.version < 0 ? 'no-stream' : p.key.version,
        events: decided.map((e) => ({ eventId: randomUUID(), type: e.type, data: e.data })),
      });
      p.key.version += decided.length;
      n += decided.length;
    }
    return appends;
  }

  randomKey(): FactKeyState {
    return this.keys[this.rng.int(this.keys.length)]!;
  }

  get random(): Rng {
    return this.rng;
  }
}
