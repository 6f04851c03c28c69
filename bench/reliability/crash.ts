/**
 * Crash cells. Eight concurrent clients assert memories (some supersede earlier ones), record
 * answers citing them (work for the re-review saga), ingest messages and ask for contexts, while a
 * process is SIGKILLed at a random moment, `kills` times:
 * - target `server`: the server itself, which also runs the projections, the recall index and the
 *   saga; after each kill it starts again and every write that got no answer is sent again with
 *   its command, answer or message id (what a client that retries does);
 * - target `worker`: a `factledger worker` (the server runs with FACTLEDGER_WORKERS=external and
 *   is never killed), so the kill lands in a projection page, an index page or a saga pass.
 * Logs: PGlite in a data folder (server only: one process owns it), native PostgreSQL, and
 * KurrentDB (the protocol server in this process, read models in PostgreSQL; no projection runs
 * inline there, so every read model is a consumer's). Then, on the store itself (checks.ts).
 * A 5xx from a live server counts as a violation too.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '@factledger/domain';
import { createLedger, type LedgerHandle, loadConfig } from '@factledger/ledger';
import { recallOn } from '@factledger/recall';
import { createTestDatabase, startLocalKurrentDb } from '@factledger/testing';
import { Rng } from '../stats';
import { type AcknowledgedWrite, checkStore } from './checks';
import { CLI, type ServerProcess, startServer } from './server-process';

const CLIENTS = 8;
const TENANT = 'crash';

export type CrashLog = 'pglite' | 'postgres' | 'kurrentdb';

export interface CrashCellResult {
  cell: string;
  backend: CrashLog;
  kills: number;
  acknowledged: { memories: number; answers: number; messages: number; recalls: number };
  /** Writes that got no answer before a kill (or a 503 while the read models lagged) and were sent again. */
  retried: number;
  /** 503 projection_lag answers (a citation not projected yet while no worker ran). */
  lagged: number;
  events: number;
  ms: number;
  violations: string[];
}

interface Write {
  kind: 'memory' | 'answer' | 'message';
  commandId: string;
  path: string;
  body: Record<string, unknown>;
  value?: string;
  messageId?: string;
}

/** A `factledger worker` process on the given environment, up once it says it started. */
async function startWorker(env: Record<string, string>): Promise<{ child: ChildProcess; exited: Promise<unknown> }> {
  const child = spawn(process.execPath, [CLI, 'worker'], { env: { ...process.env, LOG_LEVEL: 'info', FACTLEDGER_INDEX_INTERVAL_MS: '50', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const read = (d: Buffer): void => {
      output += String(d);
      if (output.includes('worker started')) resolve();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then(() => reject(new Error(`the worker exited before it started:\n${output.slice(-2000)}`)));
  });
  return { child, exited };
}

export async function crashCell(target: 'server' | 'worker', backend: CrashLog, kills: number, seed = 7): Promise<CrashCellResult> {
  if (target === 'worker' && backend === 'pglite') throw new Error('a worker cannot share an embedded PGlite with the server');
  const started = Date.now();
  const rng = new Rng(seed);
  const database = backend === 'pglite' ? null : await createTestDatabase('postgres');
  const dataDir = backend === 'pglite' ? mkdtempSync(join(tmpdir(), 'fl-crash-')) : null;
  const kurrent = backend === 'kurrentdb' ? await startLocalKurrentDb() : null;
  const env: Record<string, string> = database ? { DATABASE_URL: database.url! } : { FACTLEDGER_DATA_DIR: dataDir! };
  if (kurrent) Object.assign(env, { FACTLEDGER_EVENT_STORE: 'kurrentdb', KURRENTDB_URL: kurrent.url });
  const serverEnv = target === 'worker' ? { ...env, FACTLEDGER_WORKERS: 'external' } : env;
  const acknowledged: AcknowledgedWrite[] = [];
  const memories: string[] = [];
  const violations: string[] = [];
  let pending: Write[] = [];
  let recalls = 0;
  let answers = 0;
  let retried = 0;
  let lagged = 0;
  let next = 0;

  const writeOf = (n: number): Write => {
    const r = rng.next();
    if (r < 0.15 && memories.length) {
      const cites = [memories[rng.int(memories.length)]!];
      return { kind: 'answer', commandId: `crash-answer-${n}`, path: 'answers', body: { answerId: `crash-answer-${n}`, commandId: `crash-answer-${n}`, text: `Answer ${n}.`, cites } };
    }
    if (r < 0.65) {
      // One service in four is one said before: a new value supersedes it (and reopens what cited it).
      const service = rng.next() < 0.25 && n > 8 ? rng.int(n) : n;
      const value = String(1000 + n);
      return { kind: 'memory', commandId: `crash-memory-${n}`, path: 'memories', value, body: { subject: `service ${service}`, relation: 'port', value, commandId: `crash-memory-${n}` } };
    }
    const messageId = `crash-message-${n}`;
    const text = `I moved build agent ${n} to the ${['Frankfurt', 'Dublin', 'Oslo', 'Madrid'][n % 4]} region and it now runs Node ${18 + (n % 5)}.`;
    return { kind: 'message', commandId: `ingest:${messageId}`, path: 'messages', messageId, body: { messageId, speaker: 'user', text } };
  };

  const send = async (base: string, w: Write): Promise<boolean> => {
    let res: Response;
    try {
      res = await fetch(`${base}/v1/tenants/${TENANT}/${w.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(w.body) });
    } catch {
      return false; // no answer: the server went away under it
    }
    const body = (await res.json().catch(() => null)) as { memoryId?: string; outcome?: string; error?: string } | null;
    // The read models behind the log (a worker killed, a new one not there yet): a clear "try again later".
    if (res.status === 503 && body?.error === 'projection_lag') {
      lagged++;
      return false;
    }
    if (res.status >= 500) violations.push(`${w.commandId}: ${res.status} from a live server ${JSON.stringify(body)}`);
    if (res.status >= 300) {
      if (res.status < 500) violations.push(`${w.commandId}: refused with ${res.status} ${JSON.stringify(body)}`);
      return true;
    }
    if (w.kind === 'answer') answers++;
    else acknowledged.push({ kind: w.kind, commandId: w.commandId, tenant: TENANT, memoryId: body?.memoryId, value: w.value, messageId: w.messageId, outcome: body?.outcome });
    if (w.kind === 'memory' && body?.memoryId) memories.push(body.memoryId);
    return true;
  };

  /** The clients, until `stop()`: what they could not get an answer to is left in `pending`. */
  const load = (server: ServerProcess): { stop(): Promise<void> } => {
    let stopped = false;
    const client = async (): Promise<void> => {
      while (!stopped) {
        if (rng.next() < 0.2) {
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
        const w = writeOf(next++);
        if (!(await send(server.base, w))) pending.push(w);
      }
    };
    const clients = Array.from({ length: CLIENTS }, client);
    return {
      async stop() {
        stopped = true;
        await Promise.all(clients);
      },
    };
  };

  const retry = async (server: ServerProcess): Promise<void> => {
    const again = pending;
    pending = [];
    for (const w of again) {
      retried++;
      if (!(await send(server.base, w))) pending.push(w);
    }
  };

  try {
    if (target === 'server') {
      for (let round = 0; round <= kills; round++) {
        const server = await startServer(serverEnv);
        await retry(server);
        if (round === kills) {
          await server.kill('SIGTERM');
          break;
        }
        const clients = load(server);
        await new Promise((r) => setTimeout(r, 200 + rng.int(1300)));
        await server.kill('SIGKILL');
        await clients.stop();
        process.stderr.write(`  [server, ${backend}] kill ${round + 1}/${kills}: ${acknowledged.length} acknowledged, ${pending.length} unanswered\n`);
      }
    } else {
      const server = await startServer(serverEnv);
      const clients = load(server);
      try {
        for (let round = 0; round < kills; round++) {
          const worker = await startWorker(env);
          await new Promise((r) => setTimeout(r, 100 + rng.int(900)));
          worker.child.kill('SIGKILL');
          await worker.exited;
          process.stderr.write(`  [worker, ${backend}] kill ${round + 1}/${kills}: ${acknowledged.length} acknowledged\n`);
        }
        await clients.stop();
        // A worker that stays, and what was told to try again later, tried again.
        const last = await startWorker(env);
        await retry(server);
        last.child.kill('SIGTERM');
        await last.exited;
      } finally {
        await clients.stop();
        await server.kill('SIGTERM');
      }
    }
    if (pending.length) violations.push(`${pending.length} writes never got an answer, even after a clean start`);
    const config = loadConfig(env);
    const handle: LedgerHandle = await createLedger(config);
    const recall = recallOn(handle.database, handle.runner, systemClock, config);
    let findings;
    try {
      findings = await checkStore(handle, acknowledged, recall);
    } finally {
      await handle.close();
    }
    return {
      cell: `${target} killed during writes, answers, message ingest and recall`,
      backend,
      kills,
      acknowledged: { memories: acknowledged.filter((w) => w.kind === 'memory').length, answers, messages: acknowledged.filter((w) => w.kind === 'message').length, recalls },
      retried,
      lagged,
      events: findings.events,
      ms: Date.now() - started,
      violations: [...violations, ...findings.violations],
    };
  } finally {
    await database?.close();
    await kurrent?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}
