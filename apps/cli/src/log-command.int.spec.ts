/** `factledger log verify` on an embedded data folder: exit 0 and the head hash, then exit 1 and the first bad position once a row is altered. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLedger, loadConfig } from '@factledger/ledger';
import { sql } from 'kysely';
import { logCommand } from './log-command';

describe('factledger log verify', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fl-log-'));
  const config = () => loadConfig({}, { dataDir: dir, logLevel: 'silent' });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => {
    process.exitCode = undefined;
  });

  async function run(): Promise<{ lines: string[]; exitCode: number }> {
    const lines: string[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      await logCommand(config).exitOverride().parseAsync(['verify', '--page', '2'], { from: 'user' });
    } finally {
      log.mockRestore();
    }
    return { lines, exitCode: Number(process.exitCode ?? 0) };
  }

  it('prints the head hash of an honest log, and the position of an altered event with exit 1', async () => {
    const handle = await createLedger(config());
    let altered: number;
    try {
      await handle.ledger.assert('t', { subject: 'api', relation: 'port', value: '8000' });
      altered = (await handle.ledger.assert('t', { subject: 'api', relation: 'port', value: '8080' })).position;
      await handle.ledger.assert('t', { text: 'A third memory.' });
      // What the server's background loop does every pass.
      expect(await handle.store.seal()).toBe(4);
    } finally {
      await handle.close();
    }
    const honest = await run();
    expect(honest.exitCode).toBe(0);
    expect(honest.lines[0]).toMatch(/^ok: 4 events chained; head at position \d+$/);
    expect(honest.lines.at(-1)).toMatch(/^[0-9a-f]{64}$/);

    const again = await createLedger(config());
    try {
      await again.database.db.transaction().execute(async (trx) => {
        await sql`ALTER TABLE fl_events DISABLE TRIGGER USER`.execute(trx);
        await sql`UPDATE fl_events SET data = jsonb_set(data, '{value}', '"9999"') WHERE global_position = ${altered}`.execute(trx);
        await sql`ALTER TABLE fl_events ENABLE TRIGGER USER`.execute(trx);
      });
    } finally {
      await again.close();
    }
    const broken = await run();
    expect(broken.exitCode).toBe(1);
    expect(broken.lines[0]).toMatch(new RegExp(`^BROKEN at position ${altered} \\(content\\)`));
    expect(broken.lines.at(-1)).toBe(String(altered));
  });
});
