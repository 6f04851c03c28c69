/**
 * Database faults cell (native PostgreSQL: the cluster this machine runs). Four clients write
 * (asserts with command ids), read and ask for contexts without pause while the database fails
 * under the server:
 * - every backend of the server's database terminated, three times;
 * - PostgreSQL restarted;
 * - PostgreSQL stopped for three seconds, then started;
 * - a statement timeout (the operator's `ALTER DATABASE … SET statement_timeout`) while another
 *   session holds the log's tables locked for two seconds;
 * - a full disk: the database lives in a tablespace on a small filesystem of its own (a tmpfs
 *   mounted for the cell), which a file beside it fills to the last byte until writes have been
 *   refused for three seconds, then the file goes. Mounting needs root: where it is refused, the
 *   fault is reported as not run (`notRun`), never as passed.
 *
 * Promised: while the database cannot do the work, 503 with a reason (database_unavailable,
 * database_timeout, database_full), never a 500, never an answer slower than 15 s; after each fault the server
 * answers again by itself (how long it took is reported); every write that got no answer or a
 * 503 is sent again with its command id; afterwards, on the store: nothing acknowledged lost,
 * nothing half-written (checks.ts).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLedger, loadConfig } from '@factledger/ledger';
import { createTestDatabase } from '@factledger/testing';
import { Client } from 'pg';
import { type AcknowledgedWrite, checkStore } from './checks';
import { startServer } from './server-process';

const TENANT = 'faults';
const CLIENTS = 4;

export interface FaultsCellResult {
  cell: string;
  backend: string;
  faults: { fault: string; answers503: number; recoveredMs: number }[];
  /** 503 database_full answers (the full disk). */
  databaseFull: number;
  /** Faults this machine could not stage, each with why (absent when all ran). */
  notRun?: string[];
  statuses: Record<string, number>;
  acknowledged: number;
  retried: number;
  events: number;
  ms: number;
  violations: string[];
}

const cluster = (action: 'restart' | 'stop' | 'start'): void => {
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', '15', 'main', action], { stdio: 'ignore' });
};

/** A small filesystem (tmpfs) for a tablespace, and a file that fills it to the last byte. */
interface SmallDisk {
  tablespace: string;
  fill(): void;
  free(): void;
  remove(): Promise<void>;
}

const SMALL_DISK_MB = 256;

/** Mounts the small disk and makes it a tablespace; the reason when this machine refuses. */
async function smallDisk(sql: (text: string) => Promise<void>): Promise<SmallDisk | string> {
  const dir = mkdtempSync(join(tmpdir(), 'fl-disk-'));
  const tablespace = `fl_disk_${dir
    .slice(-6)
    .replace(/[^a-zA-Z0-9]/g, '_')
    .toLowerCase()}`;
  try {
    const uid = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const gid = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${SMALL_DISK_MB}m,uid=${uid},gid=${gid},mode=0700`, 'fl-disk', dir], { stdio: 'pipe' });
  } catch (error) {
    rmdirSync(dir);
    return `a full disk: mounting a small filesystem was refused here (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
  const filler = join(dir, 'filler');
  try {
    await sql(`CREATE TABLESPACE ${tablespace} LOCATION '${dir}'`);
  } catch (error) {
    // A server on another machine, say, cannot see the folder.
    execFileSync('umount', [dir], { stdio: 'ignore' });
    rmdirSync(dir);
    return `a full disk: the database server could not make a tablespace on it (${error instanceof Error ? error.message : String(error)})`;
  }
  return {
    tablespace,
    fill() {
      const fd = openSync(filler, 'a');
      try {
        for (const size of [1 << 20, 1 << 13, 1 << 9]) {
          const chunk = Buffer.alloc(size);
          try {
            for (;;) writeSync(fd, chunk);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    async remove() {
      rmSync(filler, { force: true });
      try {
        await sql(`DROP TABLESPACE IF EXISTS ${tablespace}`);
      } finally {
        // Lazily when a database was left in it (a cell that failed before it dropped its own).
        execFileSync('umount', ['--lazy', dir], { stdio: 'ignore' });
        rmdirSync(dir);
      }
    },
  };
}

/** One statement on its own connection (the admin's by default). */
async function sqlOn(text: string, url = process.env.FL_PG_ADMIN_URL!): Promise<void> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

export async function faultsCell(): Promise<FaultsCellResult> {
  const disk = await smallDisk(sqlOn);
  try {
    return await faultsOn(disk);
  } finally {
    if (typeof disk !== 'string') await disk.remove();
  }
}

async function faultsOn(disk: SmallDisk | string): Promise<FaultsCellResult> {
  const started = Date.now();
  const admin = process.env.FL_PG_ADMIN_URL!;
  const notRun = typeof disk === 'string' ? [disk] : [];
  const database = await createTestDatabase('postgres', typeof disk === 'string' ? {} : { tablespace: disk.tablespace });
  const violations: string[] = [];
  const statuses: Record<string, number> = {};
  const acknowledged: AcknowledgedWrite[] = [];
  let pending: { commandId: string; value: string; subject: string }[] = [];
  let answers503 = 0;
  let answersFull = 0;
  let retried = 0;
  let next = 0;
  const server = await startServer({ DATABASE_URL: database.url! });

  const request = async (path: string, init?: RequestInit): Promise<{ status: number; body: Record<string, unknown> | null } | null> => {
    const t0 = Date.now();
    try {
      const res = await fetch(server.base + path, { ...init, signal: AbortSignal.timeout(15_000) });
      const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
      statuses[String(res.status)] = (statuses[String(res.status)] ?? 0) + 1;
      if (res.status === 503) answers503++;
      if (res.status === 503 && body?.error === 'database_full') answersFull++;
      if (res.status >= 500 && !(res.status === 503 && /^(database_|projection_lag)/.test(String(body?.error))))
        violations.push(`${init?.method ?? 'GET'} ${path}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      return { status: res.status, body };
    } catch (error) {
      violations.push(`${init?.method ?? 'GET'} ${path}: no answer after ${Date.now() - t0} ms (${error instanceof Error ? error.message : String(error)})`);
      return null;
    }
  };
  const write = async (w: { commandId: string; value: string; subject: string }): Promise<boolean> => {
    const r = await request(`/v1/tenants/${TENANT}/memories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ subject: w.subject, relation: 'port', value: w.value, commandId: w.commandId }),
    });
    if (!r || r.status >= 300) return false;
    acknowledged.push({ kind: 'memory', commandId: w.commandId, tenant: TENANT, memoryId: String(r.body?.memoryId), value: w.value, outcome: String(r.body?.outcome) });
    return true;
  };

  let stop = false;
  const client = async (): Promise<void> => {
    while (!stop) {
      const n = next++;
      if (n % 3 === 0) await request(`/v1/tenants/${TENANT}/memories?limit=5`);
      else if (n % 7 === 0)
        await request(`/v1/tenants/${TENANT}/context`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: `service ${n - 7} port`, budgetTokens: 100 }),
        });
      else {
        const w = { commandId: `faults-${n}`, value: String(2000 + n), subject: `service ${n}` };
        if (!(await write(w))) pending.push(w);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  /** Until a read and a write both succeed again: how long the server took to answer normally. */
  const recovered = async (fault: string): Promise<number> => {
    const t0 = Date.now();
    for (;;) {
      const read = await request(`/v1/tenants/${TENANT}/memories?limit=1`);
      const wrote = await write({ commandId: `faults-probe-${next++}`, value: '1', subject: 'probe' });
      if (read?.status === 200 && wrote) return Date.now() - t0;
      if (Date.now() - t0 > 30_000) {
        violations.push(`${fault}: the server did not answer normally again within 30 s`);
        return Date.now() - t0;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const faults: FaultsCellResult['faults'] = [];
  const run = async (fault: string, cause: () => Promise<void>): Promise<void> => {
    const before = answers503;
    await new Promise((r) => setTimeout(r, 500));
    await cause();
    faults.push({ fault, answers503: answers503 - before, recoveredMs: await recovered(fault) });
    process.stderr.write(`  faults: ${fault}: ${faults.at(-1)!.answers503} × 503, normal again after ${faults.at(-1)!.recoveredMs} ms\n`);
  };

  const clients = Array.from({ length: CLIENTS }, client);
  try {
    for (let i = 0; i < 3; i++) {
      await run(`backends terminated (${i + 1})`, () => sqlOn(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database.name}' AND pid <> pg_backend_pid()`));
    }
    await run('PostgreSQL restarted', async () => cluster('restart'));
    await run('PostgreSQL stopped for 3 s', async () => {
      cluster('stop');
      try {
        await new Promise((r) => setTimeout(r, 3000));
      } finally {
        cluster('start');
      }
    });
    await run('statement timeout under a held lock', async () => {
      await sqlOn(`ALTER DATABASE "${database.name}" SET statement_timeout = '300ms'`);
      // New sessions take the setting: end the server's present ones.
      await sqlOn(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database.name}' AND pid <> pg_backend_pid()`);
      await new Promise((r) => setTimeout(r, 300));
      const url = new URL(admin);
      url.pathname = `/${database.name}`;
      const locker = new Client({ connectionString: url.toString() });
      await locker.connect();
      try {
        await locker.query('SET statement_timeout = 0');
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE fl_streams, fl_memories IN ACCESS EXCLUSIVE MODE');
        await new Promise((r) => setTimeout(r, 2000));
        await locker.query('COMMIT');
      } finally {
        await locker.end();
        await sqlOn(`ALTER DATABASE "${database.name}" RESET statement_timeout`);
        await sqlOn(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database.name}' AND pid <> pg_backend_pid()`);
      }
    });
    if (typeof disk !== 'string') {
      await run('disk full until writes were refused for 3 s', async () => {
        const before = answersFull;
        disk.fill();
        try {
          const t0 = Date.now();
          while (answersFull === before && Date.now() - t0 < 20_000) await new Promise((r) => setTimeout(r, 50));
          if (answersFull === before) violations.push('the full disk reached no write: no database_full answer within 20 s');
          await new Promise((r) => setTimeout(r, 3000));
        } finally {
          disk.free();
        }
      });
    }
  } finally {
    stop = true;
    await Promise.all(clients);
    // The cluster is up whatever happened above.
    try {
      cluster('start');
    } catch {
      // already running
    }
  }
  // Whatever got no answer or a 503, sent again with its command id.
  const again = pending;
  pending = [];
  for (const w of again) {
    retried++;
    if (!(await write(w))) pending.push(w);
  }
  if (pending.length) violations.push(`${pending.length} writes still refused after the faults`);
  await server.kill('SIGTERM');
  const handle = await createLedger(loadConfig({ DATABASE_URL: database.url! }));
  let findings;
  try {
    findings = await checkStore(handle, acknowledged);
  } finally {
    await handle.close();
    await database.close();
  }
  return {
    cell: 'database faults under load',
    backend: 'postgres',
    faults,
    databaseFull: answersFull,
    ...(notRun.length ? { notRun } : {}),
    statuses,
    acknowledged: acknowledged.length,
    retried,
    events: findings.events,
    ms: Date.now() - started,
    violations: [...violations, ...findings.violations],
  };
}
