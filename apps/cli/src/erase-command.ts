/**
 * `factledger erase --tenant T (--memory ID | --subject S | --all)`: erases through the same
 * use case as `POST /v1/tenants/{tenant}/erasures` (Erasures.erase). Prints what was erased, then
 * the erasure id alone on the last line (none when there was nothing to erase). The actor in the
 * log is `cli:<OS user>`, since no API key is involved; with `--url`, the server's route erases, as
 * the admin key given by `--key`.
 */
import { userInfo } from 'node:os';
import { actingAs, createLedger, type ErasureResult, type LedgerConfig } from '@factledger/ledger';
import { Command } from 'commander';
import { callServer, type RemoteServer } from './remote';

/** Erases on the configured database, or through the server `remote` names when it names one. */
async function erase(config: () => LedgerConfig, remote: RemoteServer | undefined, tenant: string, input: Record<string, unknown>): Promise<ErasureResult> {
  if (remote) return callServer<ErasureResult>(remote, { method: 'POST', tenant, path: 'erasures', body: input });
  const handle = await createLedger(config());
  try {
    return await actingAs(`cli:${userInfo().username}`, () => handle.erasures.erase(tenant, input));
  } finally {
    await handle.close();
  }
}

export function eraseCommand(config: () => LedgerConfig, remote: () => RemoteServer | undefined = () => undefined): Command {
  return new Command('erase')
    .description("erase a memory, a subject's memories or a whole tenant: their words leave the log and every read model; the log keeps its shape and its chain")
    .requiredOption('--tenant <tenant>', 'the tenant')
    .option('--memory <memoryId>', 'one memory (with every version of its fact)')
    .option('--subject <subject>', 'every memory kept under this subject')
    .option('--all', 'every memory of the tenant')
    .action(async (o: { tenant: string; memory?: string; subject?: string; all?: boolean }) => {
      const input = { ...(o.memory !== undefined ? { memoryId: o.memory } : {}), ...(o.subject !== undefined ? { subject: o.subject } : {}), ...(o.all ? { all: true } : {}) };
      const result = await erase(config, remote(), o.tenant, input);
      if (result.alreadyErased) console.log(`already erased at ${result.erasedAt} (position ${result.position})`);
      else if (!result.erasureId) console.log('nothing to erase');
      else {
        console.log(
          `erased ${result.memoryIds.length} memories; ${result.events} events rewritten, ${result.messages} message records, ${result.answers.length} answers reopened; recorded at position ${result.position}`,
        );
      }
      console.log(result.erasureId ?? '');
    });
}
