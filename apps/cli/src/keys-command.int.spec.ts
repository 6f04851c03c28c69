/** `factledger keys` on an embedded data folder: create prints the secret alone on its last line, list hides it, revoke stops it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLedger, loadConfig } from '@factledger/ledger';
import { keysCommand } from './keys-command';

describe('factledger keys', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fl-keys-'));
  const config = () => loadConfig({}, { dataDir: dir, logLevel: 'silent' });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function run(...args: string[]): Promise<string[]> {
    const lines: string[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      await keysCommand(config).exitOverride().parseAsync(args, { from: 'user' });
    } finally {
      log.mockRestore();
    }
    return lines.join('\n').split('\n');
  }

  it('creates a key whose secret is the last line, lists it without the secret, and revokes it', async () => {
    const created = await run('create', '--tenant', 'acme', '--scopes', 'write,read', '--name', 'agent', '--expires', '2099-01-01');
    const secret = created.at(-1)!;
    expect(secret).toMatch(/^flk_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(created[0]).toMatch(/^key [a-z0-9]{12} for tenant acme, scopes read,write, named agent, expires 2099-01-01/);
    const keyId = secret.slice('flk_'.length, 'flk_'.length + 12);

    const listed = (await run('list')).join('\n');
    expect(listed).toContain(keyId);
    expect(listed).toContain('active');
    expect(listed).not.toContain(secret.slice('flk_'.length + 12 + 1));

    const handle = await createLedger(config());
    try {
      expect(await handle.keys.authenticate(secret)).toMatchObject({ keyId, tenant: 'acme', scopes: ['read', 'write'] });
    } finally {
      await handle.close();
    }
    expect((await run('revoke', keyId))[0]).toMatch(new RegExp(`^key ${keyId} revoked at `));
    expect((await run('list')).join('\n')).toMatch(new RegExp(`${keyId}\\s+revoked`));
  });

  it('refuses wrong scopes and a past expiry with the field named, and makes no key', async () => {
    await expect(run('create', '--tenant', 'acme', '--scopes', 'read,owner')).rejects.toThrow(/scopes: must be some of read, write, admin.*not owner/);
    await expect(run('create', '--tenant', 'acme', '--scopes', 'read', '--expires', '2001-01-01')).rejects.toThrow(/expires: must be in the future/);
    await expect(run('create', '--tenant', 'bad tenant!', '--scopes', 'read')).rejects.toThrow(/tenant/);
    expect((await run('list', '--json')).join('\n')).not.toContain('owner');
    expect(JSON.parse((await run('list', '--json')).join('\n'))).toHaveLength(1);
  });
});
