/**
 * `factledger keys`: API keys for the HTTP routes. `create` prints the key's details, then its
 * secret alone on the last line (the only time it is shown: only its hash is kept); `list` shows
 * every key without secrets; `revoke` stops a key at once (it stays listed, as revoked).
 */
import { createLedger, type LedgerConfig, type LedgerHandle } from '@factledger/ledger';
import { Command } from 'commander';

async function withKeys<T>(config: () => LedgerConfig, work: (keys: LedgerHandle['keys']) => Promise<T>): Promise<T> {
  const handle = await createLedger(config());
  try {
    return await work(handle.keys);
  } finally {
    await handle.close();
  }
}

export function keysCommand(config: () => LedgerConfig): Command {
  const keys = new Command('keys').description('API keys for the HTTP API: create, list, revoke');
  keys
    .command('create')
    .description('make a key; its secret is printed once, alone on the last line')
    .requiredOption('--tenant <tenant>', 'the tenant the key covers, or * for every tenant (an operator key)')
    .requiredOption('--scopes <scopes>', 'comma-separated: read, write, admin')
    .option('--name <name>', 'a name to recognise it by')
    .option('--expires <date>', 'when it stops working (ISO 8601 date or date-time)')
    .action(async (o: { tenant: string; scopes: string; name?: string; expires?: string }) => {
      const { key, secret } = await withKeys(config, (k) => k.create(o));
      console.log(`key ${key.keyId} for tenant ${key.tenant}, scopes ${key.scopes.join(',')}${key.name ? `, named ${key.name}` : ''}${key.expiresAt ? `, expires ${key.expiresAt}` : ''}`);
      console.log('the secret below is shown only now; send it as "Authorization: Bearer <secret>"');
      console.log(secret);
    });
  keys
    .command('list')
    .description('every key, without secrets')
    .option('--json', 'as JSON')
    .action(async (o: { json?: boolean }) => {
      const all = await withKeys(config, (k) => k.list());
      if (o.json) return console.log(JSON.stringify(all, null, 2));
      if (all.length === 0) return console.log('no keys');
      for (const k of all)
        console.log(`${k.keyId}  ${k.state.padEnd(7)}  tenant ${k.tenant}  scopes ${k.scopes.join(',')}${k.name ? `  ${k.name}` : ''}${k.expiresAt ? `  expires ${k.expiresAt}` : ''}`);
    });
  keys
    .command('revoke')
    .description('stop a key at once (it stays listed, as revoked)')
    .argument('<keyId>')
    .action(async (keyId: string) => {
      const k = await withKeys(config, (keys) => keys.revoke(keyId));
      console.log(`key ${k.keyId} revoked at ${k.revokedAt}`);
    });
  return keys;
}
