/**
 * What the reliability suite checks after a cell, on the store the server used (opened in this
 * process once the server is gone): each promise of the product as a list of its violations, empty
 * when it holds.
 */
import { LOG_START, type RecordedEvent } from '@factledger/store';
import type { LedgerHandle } from '@factledger/ledger';

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
  for (let from = LOG_START; ; ) {
    const page = await handle.store.readAll(from, 5000);
    if (page.length === 0) return events;
    events.push(...page);
    from = page[page.length - 1]!.logPosition;
  }
}

/**
 * - every acknowledged write reads back exactly (a memory by its id with its value; a message's record);
 * - no command landed twice (each command id's events are one append: one commit);
 * - no half-applied batch (every memory a message's record says it stored is in the same append);
 * - every projection's read models equal a rebuild from the log;
 * - the log's hash chain verifies (after sealing what the killed server left unsealed).
 */
export async function checkStore(handle: LedgerHandle, acknowledged: AcknowledgedWrite[]): Promise<Findings> {
  const violations: string[] = [];
  await handle.runner.catchUp();
  const log = await wholeLog(handle);

  const commits = new Map<string, Set<string>>();
  for (const e of log) {
    if (e.commandId === null) continue;
    const seen = commits.get(e.commandId) ?? new Set<string>();
    seen.add(e.logPosition.commit);
    commits.set(e.commandId, seen);
  }
  for (const [commandId, seen] of commits) if (seen.size > 1) violations.push(`command ${commandId} landed ${seen.size} times`);

  const records = new Map<string, RecordedEvent>();
  const byCommit = new Map<string, RecordedEvent[]>();
  for (const e of log) {
    byCommit.set(e.logPosition.commit, [...(byCommit.get(e.logPosition.commit) ?? []), e]);
    if (e.type === 'MessageIngested') records.set(String((e.data as { messageId: string }).messageId), e);
  }
  for (const [messageId, record] of records) {
    const together = new Set((byCommit.get(record.logPosition.commit) ?? []).map((e) => (e.data as { memoryId?: string }).memoryId));
    const candidates = (record.data as { candidates: { memoryId: string | null; outcome: string | null }[] }).candidates;
    for (const c of candidates) {
      if (c.memoryId && c.outcome && STORED.has(c.outcome) && !together.has(c.memoryId)) violations.push(`message ${messageId}: its record names memory ${c.memoryId}, whose event is not in the same append`);
    }
  }

  for (const w of acknowledged) {
    if (w.kind === 'memory') {
      const m = await handle.ledger.memory(w.tenant, { memoryId: w.memoryId }).catch((error: unknown) => error as Error);
      const logged = log.filter((e) => e.commandId === w.commandId).map((e) => `${e.type} ${(e.data as { memoryId?: string }).memoryId ?? ''} at ${e.globalPosition}`);
      if (m instanceof Error) violations.push(`acknowledged memory ${w.memoryId} (${w.commandId}) (answered ${w.outcome}) does not read back: ${m.message}; the log holds for its command: ${logged.join(', ') || 'nothing'}`);
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

  await handle.store.seal();
  const verified = await handle.store.verify();
  if (!verified.ok) violations.push(`log verify: broken at position ${verified.position} (${verified.problem}): ${verified.message}`);
  return { events: log.length, violations };
}
