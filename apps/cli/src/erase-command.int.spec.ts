/** `factledger erase` on an embedded data folder: the memory reads as erased, the erasure id is the last line, the log still verifies. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLedger, loadConfig } from '@factledger/ledger';
import { eraseCommand } from './erase-command';

describe('factledger erase', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fl-erase-'));
  const config = () => loadConfig({}, { dataDir: dir, logLevel: 'silent' });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function run(args: string[]): Promise<string[]> {
    const lines: string[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      await eraseCommand(config).exitOverride().parseAsync(args, { from: 'user' });
    } finally {
      log.mockRestore();
    }
    return lines;
  }

  it('erases a subject, prints the erasure id last, and records the operator as the actor', async () => {
    let handle = await createLedger(config());
    let kept: string;
    let gone: string;
    try {
      gone = (await handle.ledger.assert('t', { subject: 'Ingrid', relation: 'phone', value: '555-0199' })).memoryId;
      kept = (await handle.ledger.assert('t', { subject: 'Bob', relation: 'phone', value: '555-0100' })).memoryId;
    } finally {
      await handle.close();
    }
    const lines = await run(['--tenant', 't', '--subject', 'Ingrid']);
    expect(lines[0]).toMatch(/^erased 1 memories; \d+ events rewritten/);
    expect(lines.at(-1)).toMatch(/^[0-9a-f-]{36}$/);
    expect(await run(['--tenant', 't', '--subject', 'Ingrid'])).toEqual(['nothing to erase', '']);

    handle = await createLedger(config());
    try {
      await expect(handle.ledger.memory('t', { memoryId: gone })).rejects.toMatchObject({ code: 'memory_erased', erasure: { erasureId: lines.at(-1), actor: expect.stringMatching(/^cli:/) } });
      expect((await handle.ledger.memory('t', { memoryId: kept })).value).toBe('555-0100');
      expect(await handle.store.verify()).toMatchObject({ ok: true });
    } finally {
      await handle.close();
    }
  });

  it('refuses two targets at once and erases nothing', async () => {
    await expect(run(['--tenant', 't', '--subject', 'Bob', '--all'])).rejects.toThrow(/exactly one/);
  });
});
