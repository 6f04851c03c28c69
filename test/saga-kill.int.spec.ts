/**
 * The re-review saga survives a real process kill in the middle of its work: a child process runs
 * it and is killed with SIGKILL after some reopens; a fresh saga then finishes the job. No reopen
 * is lost and none is doubled. Native PostgreSQL only (an in-memory PGlite cannot be shared
 * between processes).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@factledger/testing';
import { sql } from 'kysely';
import { type LedgerHandle, ledgerOn } from '@factledger/ledger';

const native = process.env.FL_PG_ADMIN_URL ? describe : describe.skip;
const ANSWERS = 300;

native('re-review saga, killed mid-run and restarted', () => {
  let database: TestDatabase;
  let handle: LedgerHandle;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    handle = ledgerOn(database);
  });
  afterAll(() => database.close());

  const count = async (): Promise<{ events: number; answers: number }> =>
    (
      await sql<{ events: number; answers: number }>`
        SELECT count(*)::int AS events, count(DISTINCT data->>'answerId')::int AS answers FROM fl_events WHERE type = 'AnswerReopened'`.execute(database.db)
    ).rows[0]!;

  it('reopens every affected answer exactly once', async () => {
    const { ledger, answers } = handle;
    const cited: string[] = [];
    for (let i = 0; i < ANSWERS; i++) {
      const m = await ledger.assert('k', { subject: `service ${i}`, relation: 'port', value: '8000' });
      await answers.record('k', { text: `Service ${i} listens on 8000.`, cites: [m.memoryId] });
      cited.push(m.memoryId);
    }
    for (let i = 0; i < ANSWERS; i++) await ledger.assert('k', { subject: `service ${i}`, relation: 'port', value: '8080' });

    const url = new URL(process.env.FL_PG_ADMIN_URL!);
    url.pathname = `/${database.name}`;
    const child = spawn(process.execPath, [join(__dirname, 'support', 'run-saga.js')], { env: { ...process.env, DATABASE_URL: url.toString() }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ? -1 : code)));
    let atKill = 0;
    for (let waited = 0; waited < 60_000; waited += 10) {
      atKill = (await count()).events;
      if (atKill >= 20) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe(-1); // killed, not finished
    expect(output).not.toContain('done');
    atKill = (await count()).events;
    expect(atKill).toBeGreaterThanOrEqual(20);
    expect(atKill).toBeLessThan(ANSWERS);

    // Restart: a fresh saga picks up from the checkpoint the killed one left.
    expect(await handle.saga.catchUp()).toBe(ANSWERS - atKill);
    expect(await count()).toEqual({ events: ANSWERS, answers: ANSWERS });
    await handle.runner.catchUp();
    const open = await sql<{ n: number }>`SELECT count(*)::int AS n FROM fl_answers WHERE tenant = 'k' AND status = 'reopened'`.execute(database.db);
    expect(open.rows[0]!.n).toBe(ANSWERS);
  }, 180_000);
});
