/**
 * The cascade (R32): a process manager that reads the stored log in order, with its own
 * checkpoint, and carries a change of a memory to the memories that hang on it, as the re-review
 * saga carries it to the answers that cited it (the same threshold: a newer value, a correction,
 * a retraction, a quarantine, a statement inside it replaced).
 *
 * - **A rule for later whose premise the change meets** ("if the team lead changes, the weekly
 *   digest will go to Lars": a memory of type `rule`, read by @factledger/domain `ruleOf`), when the
 *   premise changed to another value (superseded, retracted, corrected): its consequence is stated
 *   ("Weekly digest: Lars."), the statements of that frame it replaces are retracted, and the rule
 *   is spent (retracted) unless it says "whenever".
 * - **A memory that hangs on the changed one** (`dependsOn`) and that no rule answered: marked
 *   unconfirmed (MemoryUnconfirmed), shown with why; the re-review saga then reopens the answers
 *   that cited it. A mark is itself a change: chains cascade, to MAX_DEPTH links, so a cycle ends.
 *
 * Exactly once under crashes and replays: each write carries a command id of its memory (or rule)
 * and the causing position, so a page read again appends nothing twice. Every write names the
 * causing event (causation id `event:<id>`) and carries its batch label, so that rolling the change
 * back rolls back what it carried (marks and retractions; a consequence stated is a new memory,
 * which a rollback leaves, as it leaves any assert). Driven by the log, never by the event bus.
 */
import { DEFAULT_REVIEW_POLICY, dependencyOf, detectLanguage, isLiveEvent, type MemoryEvent, MEMORY_EVENT_TYPES, phraseWords, reviewTrigger, ruleOf } from '@factledger/domain';
import { CheckpointedConsumer, type FactReader, type Following, type MemoryRow, type ProjectionRunner, readCheckpoint } from '@factledger/projections';
import type { DatabaseSchema, RecordedEvent } from '@factledger/store';
import type { Kysely } from 'kysely';
import type { Ledger } from './ledger';
import type { LedgerOp } from './ledger-writes';

export const CASCADE = 'cascade';
/** Links a change is carried along at most (A → B → C …): a cycle of dependencies ends there. */
export const MAX_DEPTH = 5;
/** The type of a rule for later's memory (ingest gives it to a conditional statement). */
export const RULE_TYPE = 'rule';

const MEMORY_TYPES = new Set<string>(MEMORY_EVENT_TYPES);
/** Changes to another value: what a rule's premise ("if X changes") waits for. A quarantine or a mark is no change of value. */
const CHANGES_VALUE = new Set(['FactSuperseded', 'FactRetracted', 'FactCorrected', 'MemoryPartsSuperseded']);

/** A memory's words as stems: its text, and its key's subject and relation. */
const wordsOf = (m: Pick<MemoryRow, 'text' | 'subject' | 'relation'>): Set<string> => new Set(phraseWords([m.subject ?? '', m.relation ?? '', m.text].join(' ')));

export class CascadeSaga {
  private readonly consumer: CheckpointedConsumer;
  private carriedSoFar = 0;

  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly deps: { ledger: Ledger; reader: FactReader; runner: ProjectionRunner; now: () => Date },
    pageSize = 500,
  ) {
    // Its work is done before the checkpoint moves (a crash in between replays the page harmlessly).
    this.consumer = new CheckpointedConsumer(db, deps.runner.log, CASCADE, { prepare: (events) => this.carry(events) }, pageSize);
  }

  /**
   * Processes everything committed so far, and what that itself wrote (a mark is a change its own
   * dependents follow), so a chain settles in one call; concurrent callers share a run. Returns
   * the memories changed (marked, retracted or stated).
   */
  async catchUp(): Promise<number> {
    const before = this.carriedSoFar;
    for (let round = 0; round <= MAX_DEPTH; round++) {
      const start = this.carriedSoFar;
      await this.consumer.catchUp();
      if (this.carriedSoFar === start) break;
    }
    return this.carriedSoFar - before;
  }

  /** Processes what is committed and then each new event as it lands, until stopped (what a worker runs). */
  follow(options: { onError?: (error: unknown) => void } = {}): Following {
    return this.consumer.follow(options);
  }

  async lag(): Promise<{ checkpoint: number; head: number }> {
    const checkpoint = await readCheckpoint(this.db, CASCADE);
    return { checkpoint: checkpoint.prepare, head: await this.deps.runner.log.head() };
  }

  private async carry(events: RecordedEvent[]): Promise<void> {
    for (const [i, e] of events.entries()) {
      if (!MEMORY_TYPES.has(e.type) || !isLiveEvent(e)) continue;
      const event = { type: e.type, data: e.data } as MemoryEvent;
      const trigger = reviewTrigger(event, DEFAULT_REVIEW_POLICY);
      if (!trigger) continue;
      const depth = event.type === 'MemoryUnconfirmed' ? event.data.depth + 1 : 1;
      if (depth > MAX_DEPTH) continue;
      await this.deps.runner.awaitPosition(e.globalPosition, 'facts');
      const premise = await this.deps.reader.memory(e.tenant, trigger.memoryId);
      if (!premise) continue;
      const by = takenOverBy(event, events, i) ?? premise.supersededBy;
      const now = this.deps.now();
      const answered = CHANGES_VALUE.has(e.type) ? await this.applyRules(e, premise, by, now) : new Set<string>();
      for (const dependent of await this.deps.reader.dependentsOf(e.tenant, premise.memoryId, now)) {
        if (answered.has(dependent.memoryId)) continue;
        const r = await this.deps.ledger.markUnconfirmed(
          e.tenant,
          { memoryId: dependent.memoryId, premise: premise.memoryId, by, event: e.type, position: e.globalPosition, depth },
          { causationId: `event:${e.eventId}`, batch: e.batch },
        );
        if (r.outcome === 'unconfirmed' && !r.replayed) this.carriedSoFar++;
      }
    }
  }

  /**
   * The rules for later whose premise a change meets (every word of the premise is a word of the
   * changed memory), each applied once: its consequence stated, what it replaces retracted, the rule
   * spent unless it says "whenever". Returns the memories its consequences replaced.
   */
  private async applyRules(e: RecordedEvent, premise: MemoryRow, by: string | null, now: Date): Promise<Set<string>> {
    const replaced = new Set<string>();
    // A rule spent or a statement of what hangs on the premise ("a new team lead would pick
    // again") names the premise's words without being its value: its change meets no rule.
    if (premise.type === RULE_TYPE || dependencyOf(premise.text, detectLanguage(premise.text)) !== null) return replaced;
    const premiseWords = wordsOf(premise);
    for (const rule of await this.deps.reader.activeOfType(e.tenant, RULE_TYPE, now)) {
      if (rule.memoryId === premise.memoryId) continue;
      const parsed = ruleOf(rule.text, detectLanguage(rule.text));
      if (!parsed || !parsed.premiseWords.every((w) => premiseWords.has(w))) continue;
      const frame = new Set(parsed.frameWords);
      const stated = (await this.deps.reader.resembling(e.tenant, { speaker: rule.speaker, words: parsed.frameWords, now, limit: 20 })).filter(
        (m) => m.type !== RULE_TYPE && m.memoryId !== premise.memoryId && [...frame].every((w) => wordsOf(m).has(w)),
      );
      const reason = `the rule "${rule.text}" applied: ${premise.relation ?? parsed.premise} changed${by ? ` (memory ${by})` : ''}`;
      const ops: LedgerOp[] = [
        { assert: { text: `${capitalised(parsed.frame)}: ${parsed.value}.`, type: 'fact', speaker: rule.speaker, source: `rule:${rule.memoryId}` } },
        ...stated.map((m) => ({ retract: { memoryId: m.memoryId, reason } })),
        ...(parsed.whenever ? [] : [{ retract: { memoryId: rule.memoryId, reason: `applied when ${parsed.premise} changed` } }]),
      ];
      const result = await this.deps.ledger.writeMany(e.tenant, ops, {
        commandId: `rule:${rule.memoryId}:${e.globalPosition}`,
        causationId: `event:${e.eventId}`,
        ...(e.batch ? { batch: e.batch } : {}),
      });
      for (const m of stated) replaced.add(m.memoryId);
      if (!result.replayed) this.carriedSoFar += ops.length;
    }
    return replaced;
  }
}

const capitalised = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The memory that took a changed memory's place: the event's own `by` where it has one, else a
 * memory asserted in the same append (a message's new statement beside the retraction of the one
 * it changed: the same causation, the same time).
 */
function takenOverBy(event: MemoryEvent, page: readonly RecordedEvent[], at: number): string | null {
  const own = (event.data as { by?: unknown }).by;
  if (typeof own === 'string') return own;
  const e = page[at]!;
  for (let i = at - 1; i >= 0; i--) {
    const other = page[i]!;
    if (other.tenant !== e.tenant || other.causationId !== e.causationId || other.recordedAt.getTime() !== e.recordedAt.getTime()) break;
    if (other.type === 'FactAsserted' && e.causationId !== null) return (other.data as { memoryId: string }).memoryId;
  }
  return null;
}
