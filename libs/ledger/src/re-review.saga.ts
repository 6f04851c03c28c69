/**
 * The re-review saga (R15): a process manager that reads the stored log in order, with its own
 * checkpoint, and reopens every answer that cited a memory version when a lifecycle change of
 * that version crosses the review policy's threshold.
 *
 * Exactly once under crashes and replays: each reopen is appended with the command id
 * `reopen:<answer>:<causing position>`, so replaying a page after a crash (the checkpoint is
 * written only after the page's reopens) appends nothing twice; and an answer already reopened
 * stays as it is until reviewed. Driven by the log, never by the in-memory event bus alone.
 */
import { DEFAULT_REVIEW_POLICY, ERASED_REASON, isLiveEvent, MEMORY_ERASED, type MemoryErased, type MemoryEvent, MEMORY_EVENT_TYPES, type ReviewPolicy, reviewTrigger } from '@factledger/domain';
import { type AnswerReader, CheckpointedConsumer, type Following, type ProjectionRunner, readCheckpoint } from '@factledger/projections';
import type { DatabaseSchema, RecordedEvent } from '@factledger/store';
import type { Kysely } from 'kysely';
import type { Answers } from './answers';

export const RE_REVIEW = 're-review';
const MEMORY_TYPES = new Set<string>(MEMORY_EVENT_TYPES);

export class ReReviewSaga {
  private readonly consumer: CheckpointedConsumer;
  private reopenedSoFar = 0;

  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly deps: { answers: Answers; reader: AnswerReader; runner: ProjectionRunner },
    private readonly policy: ReviewPolicy = DEFAULT_REVIEW_POLICY,
    pageSize = 500,
  ) {
    // Its work is the reopens, done before the checkpoint moves (a crash in between replays the page harmlessly).
    this.consumer = new CheckpointedConsumer(db, deps.runner.log, RE_REVIEW, { prepare: (events) => this.reopenFor(events) }, pageSize);
  }

  /** Processes everything committed so far; concurrent callers share a run. Returns answers reopened. */
  async catchUp(): Promise<number> {
    const before = this.reopenedSoFar;
    await this.consumer.catchUp();
    return this.reopenedSoFar - before;
  }

  /** Processes what is committed and then each new event as it lands, through a subscription to the log, until stopped (what a worker runs). */
  follow(options: { onError?: (error: unknown) => void } = {}): Following {
    return this.consumer.follow(options);
  }

  private async reopenFor(events: RecordedEvent[]): Promise<void> {
    for (const e of events) {
      // An erasure reopens every answer that cited the memory, whatever the policy says.
      const trigger =
        e.type === MEMORY_ERASED
          ? { memoryId: (e.data as MemoryErased['data']).memoryId, reason: ERASED_REASON }
          : MEMORY_TYPES.has(e.type) && isLiveEvent(e)
            ? reviewTrigger({ type: e.type, data: e.data } as MemoryEvent, this.policy)
            : null;
      if (!trigger) continue;
      await this.deps.runner.awaitPosition(e.globalPosition, 'answers');
      for (const { answerId } of await this.deps.reader.citing(e.tenant, trigger.memoryId, e.globalPosition)) {
        const result = await this.deps.answers.reopen(e.tenant, {
          kind: 'ReopenAnswer',
          answerId,
          memoryId: trigger.memoryId,
          reason: trigger.reason,
          cause: { position: e.globalPosition, event: e.type },
        });
        if (result.changed) this.reopenedSoFar++;
      }
    }
  }

  async lag(): Promise<{ checkpoint: number; head: number }> {
    const checkpoint = await readCheckpoint(this.db, RE_REVIEW);
    return { checkpoint: checkpoint.prepare, head: await this.deps.runner.log.head() };
  }
}
