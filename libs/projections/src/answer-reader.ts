/** Queries of the answers read model. */
import { sql } from 'kysely';
import type { ProjectionExecutor } from './projection';

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

/* eslint-disable @typescript-eslint/no-explicit-any */
const toRow = (r: any): AnswerRow => ({
  answerId: r.answer_id,
  question: r.question,
  text: r.text,
  citations: r.citations,
  status: r.status,
  reopened: r.reopened,
  recordedAt: new Date(r.recorded_at).toISOString(),
  position: Number(r.position),
});
/* eslint-enable @typescript-eslint/no-explicit-any */

export class AnswerReader {
  constructor(private readonly db: ProjectionExecutor) {}

  async answer(tenant: string, answerId: string): Promise<AnswerRow | null> {
    const rows = await sql`SELECT * FROM fl_answers WHERE tenant = ${tenant} AND answer_id = ${answerId}`.execute(this.db);
    return rows.rows[0] ? toRow(rows.rows[0]) : null;
  }

  /** Answers waiting for review, oldest reopen first. */
  async reopened(tenant: string, limit = 100): Promise<AnswerRow[]> {
    const rows = await sql`SELECT * FROM fl_answers WHERE tenant = ${tenant} AND status = 'reopened' ORDER BY updated_at, answer_id LIMIT ${limit}`.execute(this.db);
    return rows.rows.map(toRow);
  }

  /** The answers that cited any of these memory versions: their ids and where they were recorded. */
  async citingAny(tenant: string, memoryIds: string[]): Promise<{ answerId: string; position: number }[]> {
    const rows = await sql<{ answer_id: string; position: string }>`
      SELECT DISTINCT a.answer_id, a.position FROM fl_answer_citations c JOIN fl_answers a ON a.tenant = c.tenant AND a.answer_id = c.answer_id
      WHERE c.tenant = ${tenant} AND c.memory_id = ANY (${memoryIds}::text[]) ORDER BY a.position`.execute(this.db);
    return rows.rows.map((r) => ({ answerId: r.answer_id, position: Number(r.position) }));
  }

  /** Answers that cited this memory version, recorded before `beforePosition` when given. */
  async citing(tenant: string, memoryId: string, beforePosition?: number): Promise<AnswerRow[]> {
    const bound = beforePosition === undefined ? sql`` : sql`AND c.position < ${beforePosition}`;
    const rows = await sql`
      SELECT a.* FROM fl_answer_citations c JOIN fl_answers a ON a.tenant = c.tenant AND a.answer_id = c.answer_id
      WHERE c.tenant = ${tenant} AND c.memory_id = ${memoryId} ${bound} ORDER BY a.answer_id`.execute(this.db);
    return rows.rows.map(toRow);
  }
}
