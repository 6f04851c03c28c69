/**
 * Crash cell "server under load": eight concurrent clients write memories, ingest messages and
 * ask for contexts while the server is SIGKILLed at a random moment, `kills` times; after each
 * kill the server starts again and every write that got no answer is sent again with its command
 * or message id (what a client that retries does). Then, on the store itself (checks.ts): nothing
 * acknowledged lost, no command twice, no half-applied batch, read models equal a rebuild, the log
 * verifies. A 5xx from a live server counts as a violation too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLedger, type LedgerHandle, ledgerOn, loadConfig } from '@factledger/ledger';
import { createTestDatabase } from '@factledger/store';
import { Rng } from '../stats';
import { type AcknowledgedWrite, checkStore } from './checks';
import { startServer } from './server-process';

const CLIENTS = 8;
const TENANT = 'crash';

export interface CrashCellResult {
  cell: string;
  backend: 'pglite' | 'postgres';
  kills: number;
  acknowledged: { memories: number; messages: number; recalls: number };
  /** Writes that got no answer before a kill and were sent again after it. */
  retried: number;
  events: number;
  ms: number;
  violations: string[];
}

interface Write {
  kind: 'memory' | 'message';
  commandId: string;
  path: string;
  body: Record<string, unknown>;
  value?: string;
  messageId?: string;
}

function writeOf(n: number, rng: Rng): Write {
  if (rng.next() < 0.6) {
    const value = String(1000 + n);
    return { kind: 'memory', commandId: `crash-memory-${n}`, path: 'memories', value, body: { subject: `service ${n}`, relation: 'port', value, commandId: `crash-memory-${n}` } };
  }
  const messageId = `crash-message-${n}`;
  const text = `I moved build agent ${n} to the ${['Frankfurt', 'Dublin', 'Oslo', 'Madrid'][n % 4]} region and it now runs Node ${18 + (n % 5)}.`;
  return { kind: 'message', commandId: `ingest:${messageId}`, path: 'messages', messageId, body: { messageId, speaker: 'user', text } };
}

export async function serverCrashCell(backend: 'pglite' | 'postgres', kills: number, seed = 7): Promise<CrashCellResult> {
  const started = Date.now();
  const rng = new Rng(seed);
  const database = backend === 'postgres' ? await createTestDatabase('postgres') : null;
  const dataDir = backend === 'pglite' ? mkdtempSync(join(tmpdir(), 'fl-crash-')) : null;
  const env: Record<string, string> = database ? { DATABASE_URL: database.url! } : { FACTLEDGER_DATA_DIR: dataDir! };
  const acknowledged: AcknowledgedWrite[] = [];
  const violations: string[] = [];
  let pending: Write[] = [];
  let recalls = 0;
  let retried = 0;
  let next = 0;

  const send = async (base: string, w: Write): Promise<boolean> => {
    let res: Response;
    try {
      res = await fetch(`${base}/v1/tenants/${TENANT}/${w.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(w.body) });
    } catch {
      return false; // no answer: the server went away under it
    }
    const body = (await res.json().catch(() => null)) as { memoryId?: string; outcome?: string } | null;
    if (res.status >= 500) violations.push(`${w.commandId}: ${res.status} from a live server`);
    if (res.status >= 300) {
      if (res.status < 500) violations.push(`${w.commandId}: refused with ${res.status} ${JSON.stringify(body)}`);
      return true;
    }
    acknowledged.push({ kind: w.kind, commandId: w.commandId, tenant: TENANT, memoryId: body?.memoryId, value: w.value, messageId: w.messageId, outcome: body?.outcome });
    return true;
  };

  try {
    for (let round = 0; round <= kills; round++) {
      const server = await startServer(env);
      // What got no answer before the last kill goes again, with the same ids.
      const again = pending;
      pending = [];
      for (const w of again) {
        retried++;
        if (!(await send(server.base, w))) pending.push(w);
      }
      if (round === kills) {
        await server.kill('SIGTERM');
        break;
      }
      let stop = false;
      const client = async (): Promise<void> => {
        while (!stop) {
          if (rng.next() < 0.25) {
            try {
              const res = await fetch(`${server.base}/v1/tenants/${TENANT}/context`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ query: `Which port does service ${rng.int(Math.max(1, next))} listen on?`, budgetTokens: 200 }),
              });
              await res.text();
              if (res.status >= 500) violations.push(`context: ${res.status} from a live server`);
              else if (res.status === 200) recalls++;
            } catch {
              // the kill
            }
            continue;
          }
          const w = writeOf(next++, rng);
          if (!(await send(server.base, w))) pending.push(w);
        }
      };
      const clients = Array.from({ length: CLIENTS }, client);
      await new Promise((r) => setTimeout(r, 200 + rng.int(1300)));
      await server.kill('SIGKILL');
      stop = true;
      await Promise.all(clients);
      process.stderr.write(`  [${backend}] kill ${round + 1}/${kills}: ${acknowledged.length} acknowledged, ${pending.length} unanswered\n`);
    }
    if (pending.length) violations.push(`${pending.length} writes never got an answer, even after a clean start`);
    const handle: LedgerHandle = database ? ledgerOn(database) : await createLedger(loadConfig({ FACTLEDGER_DATA_DIR: dataDir! }));
    let findings;
    try {
      findings = await checkStore(handle, acknowledged);
    } finally {
      if (!database) await handle.close();
    }
    return {
      cell: 'server killed during writes, message ingest and recall',
      backend,
      kills,
      acknowledged: { memories: acknowledged.filter((w) => w.kind === 'memory').length, messages: acknowledged.filter((w) => w.kind === 'message').length, recalls },
      retried,
      events: findings.events,
      ms: Date.now() - started,
      violations: [...violations, ...findings.violations],
    };
  } finally {
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}
