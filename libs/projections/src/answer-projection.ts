/**
 * The answers read model: each recorded answer with its citations and status, and an index from
 * cited memory version to answer (what the re-review saga looks up). Replays are no-ops: every
 * write is keyed, and status changes carry the event's position.
 */
import { type AnswerEvent, type AnswerRecorded, MEMORY_ERASED, type MemoryErased, redactEvent } from '@factledger/domain';
import { type AnswerTables, type Executor, type RecordedEvent, slice } from '@factledger/store';
import { type Kysely, sql } from 'kysely';
import type { Projection } from './projection';

const ANSWER_TYPES = new Set(['AnswerRecorded', 'AnswerReopened', 'AnswerReviewed']);

export class AnswerProjection implements Projection {
  readonly name = 'answers';
  readonly tables = ['fl_answers', 'fl_answer_citations'];

  async apply(executor: Executor, events: RecordedEvent[]): Promise<void> {
    const trx: Kysely<AnswerTables> = slice(executor);
    for (const e of events) {
      if (e.type === MEMORY_ERASED) {
        // The answers that cited it lose what the erasure takes of their record (the domain's
        // rule, as the log's copy was rewritten): the question, the text, that citation's words.
        const { memoryId, erasureId } = e.data as MemoryErased['data'];
        const cited = await trx
          .selectFrom('fl_answer_citations as c')
          .innerJoin('fl_answers as a', (join) => join.onRef('a.tenant', '=', 'c.tenant').onRef('a.answer_id', '=', 'c.answer_id'))
          .select(['a.answer_id', 'a.question', 'a.text', 'a.citations'])
          .where('c.tenant', '=', e.tenant)
          .where('c.memory_id', '=', memoryId)
          .execute();
        for (const a of cited) {
          const left = redactEvent({ type: 'AnswerRecorded', data: { answerId: a.answer_id, question: a.question, text: a.text, citations: a.citations } }, new Set([memoryId]), erasureId, false) as
            AnswerRecorded['data'] | null;
          if (!left) continue;
          await trx
            .updateTable('fl_answers')
            .set({ question: left.question, text: left.text, citations: sql<string>`${JSON.stringify(left.citations)}::jsonb` })
            .where('tenant', '=', e.tenant)
            .where('answer_id', '=', a.answer_id)
            .execute();
        }
        continue;
      }
      if (!ANSWER_TYPES.has(e.type)) continue;
      const event = { type: e.type, data: e.data } as AnswerEvent;
      const at = e.recordedAt.toISOString();
      switch (event.type) {
        case 'AnswerRecorded': {
          const d = event.data;
          await sql`
            WITH a AS (
              INSERT INTO fl_answers (tenant, answer_id, question, text, citations, status, recorded_at, updated_at, position, last_position)
              VALUES (${e.tenant}, ${d.answerId}, ${d.question}, ${d.text}, ${JSON.stringify(d.citations)}::jsonb, 'answered', ${at}, ${at}, ${e.globalPosition}, ${e.globalPosition})
              ON CONFLICT DO NOTHING RETURNING 1)
            INSERT INTO fl_answer_citations (tenant, memory_id, answer_id, position)
            SELECT ${e.tenant}, c.memory_id, ${d.answerId}, ${e.globalPosition}
            FROM unnest(${d.citations.map((c) => c.memoryId)}::text[]) AS c(memory_id)
            ON CONFLICT DO NOTHING`.execute(trx);
          break;
        }
        case 'AnswerReopened':
        case 'AnswerReviewed': {
          const status = event.type === 'AnswerReopened' ? 'reopened' : 'reviewed';
          const reopened = event.type === 'AnswerReopened' ? JSON.stringify({ ...event.data, at }) : null;
          await trx
            .updateTable('fl_answers')
            .set({ status, reopened: sql<string>`coalesce(${reopened}::jsonb, reopened)`, updated_at: at, last_position: e.globalPosition })
            .where('tenant', '=', e.tenant)
            .where('answer_id', '=', event.data.answerId)
            .where('last_position', '<', e.globalPosition)
            .execute();
          break;
        }
      }
    }
  }

  async reset(trx: Executor): Promise<void> {
    await sql`TRUNCATE fl_answers, fl_answer_citations`.execute(trx);
  }
}
