/** Queries of the answers read model. */
import { type AnswersTable, type AnswerTables, type Executor, slice } from '@factledger/store';
import { type Kysely, type Selectable, sql } from 'kysely';

export interface AnswerRow {
  answerId: string;
  question: string;
  text: string;
  /** `erased`: the cited memory was erased since, and its words with it. */
  citations: { memoryId: string; value: string | null; text: string; speaker: string; erased?: boolean }[];
  status: 'answered' | 'reopened' | 'reviewed';
  reopened: { answerId: string; memoryId: string; reason: string; cause: { position: number; event: string }; at: string } | null;
  recordedAt: string;
  position: number;
}

const toRow = (r: Selectable<AnswersTable>): AnswerRow => ({
  answerId: r.answer_id,
  question: r.question,
  text: r.text,
  citations: r.citations,
  status: r.status,
  reopened: r.reopened,
  recordedAt: new Date(r.recorded_at).toISOString(),
  position: Number(r.position),
});

export class AnswerReader {
  private readonly db: Kysely<AnswerTables>;

  constructor(db: Executor) {
    this.db = slice(db);
  }

  async answer(tenant: string, answerId: string): Promise<AnswerRow | null> {
    const row = await this.db.selectFrom('fl_answers').selectAll().where('tenant', '=', tenant).where('answer_id', '=', answerId).executeTakeFirst();
    return row ? toRow(row) : null;
  }

  /** Answers waiting for review, oldest reopen first. */
  async reopened(tenant: string, limit = 100): Promise<AnswerRow[]> {
    const rows = await this.db.selectFrom('fl_answers').selectAll().where('tenant', '=', tenant).where('status', '=', 'reopened').orderBy('updated_at').orderBy('answer_id').limit(limit).execute();
    return rows.map(toRow);
  }

  /** The answers that cited any of these memory versions: their ids and where they were recorded. */
  async citingAny(tenant: string, memoryIds: string[]): Promise<{ answerId: string; position: number }[]> {
    const rows = await this.citations(tenant)
      .where('c.memory_id', '=', sql<string>`ANY (${memoryIds}::text[])`)
      .select(['a.answer_id', 'a.position'])
      .distinct()
      .orderBy('a.position')
      .execute();
    return rows.map((r) => ({ answerId: r.answer_id, position: Number(r.position) }));
  }

  /** Answers that cited this memory version, recorded before `beforePosition` when given. */
  async citing(tenant: string, memoryId: string, beforePosition?: number): Promise<AnswerRow[]> {
    const rows = await this.citations(tenant)
      .where('c.memory_id', '=', memoryId)
      .$if(beforePosition !== undefined, (q) => q.where('c.position', '<', beforePosition!))
      .selectAll('a')
      .orderBy('a.answer_id')
      .execute();
    return rows.map(toRow);
  }

  /** A tenant's citations, each with the answer that made it. */
  private citations(tenant: string) {
    return this.db
      .selectFrom('fl_answer_citations as c')
      .innerJoin('fl_answers as a', (join) => join.onRef('a.tenant', '=', 'c.tenant').onRef('a.answer_id', '=', 'c.answer_id'))
      .where('c.tenant', '=', tenant);
  }
}
