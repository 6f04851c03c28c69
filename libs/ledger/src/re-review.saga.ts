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
import { type AnswerReader, lockProjection, SingleFlightDrain, type ProjectionRunner, readCheckpoint, writeCheckpoint } from '@factledger/projections';
import { readLog } from '@factledger/store';
import { type Kysely, sql } from 'kysely';
import type { Answers } from './answers';

export const RE_REVIEW = 're-review';
const MEMORY_TYPES = new Set<string>(MEMORY_EVENT_TYPES);

export class ReReviewSaga {
  private readonly drain = new SingleFlightDrain(async () => {
    const { done, reopened } = await this.page();
    return { done, count: reopened };
  });

  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    private readonly db: Kysely<any>,
    private readonly deps: { answers: Answers; reader: AnswerReader; runner: ProjectionRunner },
    private readonly policy: ReviewPolicy = DEFAULT_REVIEW_POLICY,
    private readonly pageSize = 500,
  ) {}

  /** Processes everything committed so far; concurrent callers share a run. Returns answers reopened. */
  catchUp(): Promise<number> {
    return this.drain.run();
  }

  /** One page: its reopens first, then the checkpoint (a crash in between replays the page harmlessly). */
  async page(): Promise<{ done: boolean; reopened: number }> {
    await sql`INSERT INTO fl_checkpoints (name) VALUES (${RE_REVIEW}) ON CONFLICT DO NOTHING`.execute(this.db);
    const from = await readCheckpoint(this.db, RE_REVIEW);
    const events = await readLog(this.db, from, this.pageSize);
    if (events.length === 0) return { done: true, reopened: 0 };
    let reopened = 0;
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
        if (result.changed) reopened++;
      }
    }
    const last = events[events.length - 1]!.logPosition;
    await this.db.transaction().execute(async (trx) => {
      await lockProjection(trx, RE_REVIEW);
      const now = await readCheckpoint(trx, RE_REVIEW);
      if (now.prepare < last.prepare) await writeCheckpoint(trx, RE_REVIEW, last);
    });
    return { done: events.length < this.pageSize, reopened };
  }

  async lag(): Promise<{ checkpoint: number; head: number }> {
    const checkpoint = await readCheckpoint(this.db, RE_REVIEW);
    const head = await sql<{ h: number | null }>`SELECT max(global_position) AS h FROM fl_events`.execute(this.db);
    return { checkpoint: checkpoint.prepare, head: Number(head.rows[0]?.h ?? 0) };
  }
}
