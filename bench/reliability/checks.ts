/**
 * What the reliability suite checks after a cell, on the store the server used (opened in this
 * process once the server is gone): each promise of the product as a list of its violations, empty
 * when it holds.
 */
import { LOG_START, type RecordedEvent } from '@factledger/store';
import type { LedgerHandle } from '@factledger/ledger';
import { writeCheckpoint } from '@factledger/projections';
import { RECALL_INDEX, type RecallHandle } from '@factledger/recall';
import { sql } from 'kysely';

/** A write the server acknowledged (2xx), as the client sent it and as the server answered. */
export interface AcknowledgedWrite {
  kind: 'memory' | 'message';
  commandId: string;
  tenant: string;
  /** memory: the memory's id and value; message: its id. */
  memoryId?: string;
  value?: string;
  messageId?: string;
  /** What the server said it did (memory: created, duplicate, …). */
  outcome?: string;
}

export interface Findings {
  /** Events in the log after the checks. */
  events: number;
  violations: string[];
}

const STORED = new Set(['created', 'superseded', 'corrected', 'filled-history', 'reinforced', 'overruled']);

async function wholeLog(handle: LedgerHandle): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (let from = LOG_START; ;) {
    const page = await handle.store.readAll(from, 5000);
    if (page.length === 0) return events;
    events.push(...page);
    from = page[page.length - 1]!.logPosition;
  }
}

/**
 * - every acknowledged write reads back exactly (a memory by its id with its value; a message's record);
 * - no command landed twice (no event of a command id repeated; one commit where the log is a table);
 * - no half-applied batch (every memory a message's record says it stored is in the same append);
 * - no answer reopened twice by the saga;
 * - with `recall`: the recall index equals one built again from the log;
 * - every projection's read models equal a rebuild from the log;
 * - the log's hash chain verifies (after sealing what the killed server left unsealed).
 */
export async function checkStore(handle: LedgerHandle, acknowledged: AcknowledgedWrite[], recall?: RecallHandle): Promise<Findings> {
  const violations: string[] = [];
  await handle.runner.catchUp();
  const log = await wholeLog(handle);

  // A command that landed twice repeats an event: the same type on the same stream for the same
  // memory (its ids are fixed by the command id). Where the log is a table, an append is also one
  // transaction: one commit per command.
  const byCommand = new Map<string, RecordedEvent[]>();
  for (const e of log) if (e.commandId !== null) byCommand.set(e.commandId, [...(byCommand.get(e.commandId) ?? []), e]);
  for (const [commandId, events] of byCommand) {
    const seen = new Set<string>();
    for (const e of events) {
      const key = `${e.streamId}|${e.type}|${(e.data as { memoryId?: string }).memoryId ?? JSON.stringify(e.data)}`;
      if (seen.has(key)) violations.push(`command ${commandId} landed twice: ${e.type} on ${e.streamId} again at ${e.globalPosition}`);
      seen.add(key);
    }
    const commits = new Set(events.map((e) => e.logPosition.commit));
    if (handle.store.capabilities.logInDatabase && commits.size > 1) violations.push(`command ${commandId} landed in ${commits.size} transactions`);
  }

  const records = new Map<string, RecordedEvent>();
  for (const e of log) if (e.type === 'MessageIngested') records.set(String((e.data as { messageId: string }).messageId), e);
  for (const [messageId, record] of records) {
    const append = record.commandId === null ? log.filter((e) => e.logPosition.commit === record.logPosition.commit) : byCommand.get(record.commandId)!;
    const together = new Set(append.map((e) => (e.data as { memoryId?: string }).memoryId));
    const candidates = (record.data as { candidates: { memoryId: string | null; outcome: string | null }[] }).candidates;
    for (const c of candidates) {
      if (c.memoryId && c.outcome && STORED.has(c.outcome) && !together.has(c.memoryId))
        violations.push(`message ${messageId}: its record names memory ${c.memoryId}, whose event is not in the same append`);
    }
  }

  for (const w of acknowledged) {
    if (w.kind === 'memory') {
      const m = await handle.ledger.memory(w.tenant, { memoryId: w.memoryId ?? '' }).catch((error: unknown) => error as Error);
      const logged = log.filter((e) => e.commandId === w.commandId).map((e) => `${e.type} ${(e.data as { memoryId?: string }).memoryId ?? ''} at ${e.globalPosition}`);
      if (m instanceof Error)
        violations.push(
          `acknowledged memory ${w.memoryId} (${w.commandId}) (answered ${w.outcome}) does not read back: ${m.message}; the log holds for its command: ${logged.join(', ') || 'nothing'}`,
        );
      else if (m.value !== w.value) violations.push(`acknowledged memory ${w.memoryId} reads back ${JSON.stringify(m.value)}, not ${JSON.stringify(w.value)}`);
    } else if (!records.has(w.messageId!)) {
      violations.push(`acknowledged message ${w.messageId} has no record in the log`);
    }
  }

  for (const name of ['facts', 'answers']) {
    const live = JSON.stringify(await handle.runner.rows(name));
    await handle.runner.rebuild(name);
    if (JSON.stringify(await handle.runner.rows(name)) !== live) violations.push(`the ${name} read models differ from a rebuild from the log`);
  }

  // The saga reopens an answer once for a change of what it cited, never twice.
  const reopened = new Map<string, number>();
  for (const e of log) {
    if (e.type !== 'AnswerReopened') continue;
    const answerId = String((e.data as { answerId: string }).answerId);
    reopened.set(answerId, (reopened.get(answerId) ?? 0) + 1);
  }
  for (const [answerId, n] of reopened) if (n > 1) violations.push(`answer ${answerId} reopened ${n} times`);

  if (recall) {
    // The recall index against one built again from the log: row by row, naming what differs.
    const indexed = async (): Promise<Map<string, string>> =>
      new Map(
        (
          await sql<{ k: string; r: unknown }>`SELECT tenant || '/' || memory_id || '/' || model AS k, to_jsonb(i) - 'indexed_at' - 'embedding' - 'lexemes' AS r FROM fl_recall_index i`.execute(
            handle.database.db,
          )
        ).rows.map((x) => [x.k, JSON.stringify(x.r)]),
      );
    await recall.indexer.catchUp();
    const live = await indexed();
    await sql`DELETE FROM fl_recall_index`.execute(handle.database.db);
    await writeCheckpoint(handle.database.db, RECALL_INDEX, LOG_START, { force: true });
    while ((await recall.indexer.catchUp()) > 0);
    const rebuilt = await indexed();
    const differing = [...new Set([...live.keys(), ...rebuilt.keys()])].filter((k) => live.get(k) !== rebuilt.get(k));
    if (differing.length) {
      const shown = differing.slice(0, 3).map((k) => `${k}: live ${live.get(k)?.slice(0, 300) ?? 'missing'}; rebuilt ${rebuilt.get(k)?.slice(0, 300) ?? 'missing'}`);
      violations.push(`the recall index differs from one built again from the log in ${differing.length} rows, first ${shown.join(' | ')}`);
    }
  }

  await handle.store.seal();
  const verified = await handle.store.verify();
  if (!verified.ok) violations.push(`log verify: broken at position ${verified.position} (${verified.problem}): ${verified.message}`);
  return { events: log.length, violations };
}
