/**
 * Backup and restore cell: the documented procedure of each backend (docs/operations.md), run.
 * - PostgreSQL: `pg_dump -Fc` of the server's database while it serves, `pg_restore` into a new
 *   database;
 * - PGlite: the server stopped (SIGTERM), its data folder copied, as a whole, to a new place.
 * Then, on the restored copy: a server started on it answers a set of reads (memories, facts as of
 * two times, a subject, history, an answer, a message's record, the audit, a context) exactly as
 * the original did before the backup; the log's hash chain verifies; each projection's restored
 * read models equal a rebuild from the restored log.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLedger, loadConfig } from '@factledger/ledger';
import { createTestDatabase } from '@factledger/testing';
import { startServer } from './server-process';

export interface BackupCellResult {
  cell: string;
  backend: string;
  events: number;
  reads: number;
  backupMs: number;
  restoreMs: number;
  ms: number;
  violations: string[];
}

const T = '/v1/tenants/backup';
const LATER = '2030-01-01T00:00:00Z';

/** Writes that leave every kind of read model something to hold. */
async function populate(base: string): Promise<void> {
  const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(base + T + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`populate ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  for (let i = 0; i < 30; i++) await post('/memories', { subject: `service ${i % 10}`, relation: 'port', value: String(8000 + i), validFrom: `2026-0${1 + (i % 3)}-01` });
  const cited = await post('/memories', { subject: 'api', relation: 'owner', value: 'Mina', batch: 'ownership' });
  await post('/memories', { text: 'The staging database runs on PostgreSQL 15.' });
  await post('/messages', { messageId: 'backup-message-1', speaker: 'user', text: 'I moved to Lisbon last month and I work at Acme now.' });
  await post('/answers', { answerId: 'backup-answer-1', text: 'Mina owns the API.', cites: [cited.memoryId] });
  await post('/memories', { subject: 'api', relation: 'owner', value: 'Joon' }); // reopens the answer
  await post(`/memories/${cited.memoryId}/quarantine`, { reason: 'checking', batch: 'checks' });
}

/** The reads compared before and after, each as the server answers it (time-of-reading fields left out). */
async function reads(base: string): Promise<Record<string, unknown>> {
  // The saga and the index settle first: the answer's reopening, the index's last memories.
  for (let i = 0; i < 100; i++) {
    const health = (await (await fetch(`${base}/health`)).json()) as { projections: { behindEvents: number }[]; recallIndex: { behindEvents: number } | null };
    const answer = (await (await fetch(`${base}${T}/answers/backup-answer-1`)).json()) as { status?: string };
    if (health.projections.every((p) => p.behindEvents === 0) && (health.recallIndex?.behindEvents ?? 0) === 0 && answer.status === 'reopened') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const get = async (path: string): Promise<unknown> => {
    const res = await fetch(base + T + path);
    return { status: res.status, body: await res.json() };
  };
  const audit = (await get(`/audit?knownAt=${LATER}&validAt=2026-02-15T00:00:00Z`)) as { body: Record<string, unknown> };
  const context = (await (
    await fetch(base + T + '/context', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'Which port does service 3 listen on?', budgetTokens: 300 }) })
  ).json()) as { text: string; items: { memoryId: string }[] };
  return {
    memories: await get('/memories?limit=1000'),
    quarantined: await get('/memories?status=quarantined'),
    // Times given, not taken from the clock: the answers of two servers at two moments compare.
    fact: await get(`/facts?subject=service%203&relation=port&validAt=2026-06-01T00:00:00Z&knownAt=${LATER}`),
    factThen: await get(`/facts?subject=service%203&relation=port&validAt=2026-01-15T00:00:00Z&knownAt=${LATER}`),
    subject: await get(`/subjects/api?validAt=2026-06-01T00:00:00Z&knownAt=${LATER}`),
    history: await get('/history?subject=service%203&relation=port'),
    answers: await get('/answers'),
    answer: await get('/answers/backup-answer-1'),
    message: await get('/messages/backup-message-1'),
    batch: await get('/batches/ownership'),
    audit: audit.body.memories,
    context: { text: context.text, items: context.items.map((i) => i.memoryId) },
  };
}

/** Where two answers first part, depth first; null when they are the same. */
function firstDifference(before: unknown, after: unknown, path: string): { path: string; before: unknown; after: unknown } | null {
  if (typeof before === 'object' && before !== null && typeof after === 'object' && after !== null) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const d = firstDifference((before as Record<string, unknown>)[key], (after as Record<string, unknown>)[key], `${path}.${key}`);
      if (d) return d;
    }
    return null;
  }
  return JSON.stringify(before) === JSON.stringify(after) ? null : { path, before, after };
}

export async function backupCell(backend: 'postgres' | 'pglite'): Promise<BackupCellResult> {
  const started = Date.now();
  const violations: string[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'fl-backup-'));
  const original = backend === 'postgres' ? await createTestDatabase('postgres') : null;
  const restored = backend === 'postgres' ? await createTestDatabase('postgres', { migrate: false }) : null;
  const env = (where: 'original' | 'restored'): Record<string, string> =>
    backend === 'postgres' ? { DATABASE_URL: (where === 'original' ? original : restored)!.url! } : { FACTLEDGER_DATA_DIR: join(scratch, where) };
  let backupMs = 0;
  let restoreMs = 0;
  try {
    const server = await startServer(env('original'));
    let before: Record<string, unknown>;
    try {
      await populate(server.base);
      before = await reads(server.base);
      const t0 = Date.now();
      if (backend === 'postgres') {
        // Online: pg_dump reads one consistent snapshot while the server serves.
        execFileSync('pg_dump', ['-Fc', '-d', original!.url!, '-f', join(scratch, 'backup.dump')]);
      }
      backupMs = Date.now() - t0;
    } finally {
      await server.kill('SIGTERM');
    }
    const t1 = Date.now();
    if (backend === 'postgres') execFileSync('pg_restore', ['--no-owner', '-d', restored!.url!, join(scratch, 'backup.dump')]);
    else cpSync(join(scratch, 'original'), join(scratch, 'restored'), { recursive: true });
    restoreMs = Date.now() - t1 + (backend === 'pglite' ? backupMs : 0);

    // A server on the restored copy as restored, before anything rewrites a read model.
    const copy = await startServer(env('restored'));
    try {
      const after = await reads(copy.base);
      for (const [what, answer] of Object.entries(before)) {
        const differs = firstDifference(answer, after[what], what);
        if (differs) violations.push(`${differs.path}: the restored server answers ${JSON.stringify(differs.after).slice(0, 200)}, the original ${JSON.stringify(differs.before).slice(0, 200)}`);
      }
    } finally {
      await copy.kill('SIGTERM');
    }
    // Then, through the library: the chain, and the restored read models against a rebuild (which
    // rewrites them: after it, rows that tie may come back in another order).
    const handle = await createLedger(loadConfig(env('restored')));
    let events = 0;
    try {
      const verified = await handle.store.verify();
      if (!verified.ok) violations.push(`log verify on the restored copy: ${verified.problem} at ${verified.position}: ${verified.message}`);
      else events = verified.events;
      for (const name of ['facts', 'answers']) {
        const live = JSON.stringify(await handle.runner.rows(name));
        await handle.runner.rebuild(name);
        if (JSON.stringify(await handle.runner.rows(name)) !== live) violations.push(`the restored ${name} read models differ from a rebuild of the restored log`);
      }
    } finally {
      await handle.close();
    }
    return { cell: 'backup and restore', backend, events, reads: Object.keys(before).length, backupMs, restoreMs, ms: Date.now() - started, violations };
  } finally {
    await original?.close();
    await restored?.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
