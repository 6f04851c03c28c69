/**
 * A real hot standby of the native test server (FL_PG_ADMIN_URL), for the read-replica tests: a
 * second cluster made by `pg_basebackup -R` (streaming replication from the primary, WAL replayed
 * as it comes) on a port of its own, started with `pg_ctl`, and removed again by `close`. It holds
 * every database of the primary, those created after it too. The primary must accept replication
 * connections from 127.0.0.1 (`.ci/allow-replication.sh` adds the pg_hba.conf line).
 *
 * As root (CI), the cluster's files are given to the `postgres` user and its programs run as it.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

const run = promisify(execFile);

export interface Standby {
  /** The standby's connection string for `database` (the primary's database of that name). */
  urlOf(database: string): string;
  port: number;
  /** Stops and resumes the replay of WAL (pg_wal_replay_pause / _resume): the standby falls behind while paused. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Stops the standby's server (fast shutdown), and starts it again. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Waits until the standby has replayed everything the primary has written so far. */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** Stops the server and removes its files. */
  close(): Promise<void>;
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL program, as the `postgres` user when this process is root (the server refuses to run as root). */
async function pgProgram(bin: string, program: string, args: string[]): Promise<string> {
  const path = join(bin, program);
  const { stdout } = asRoot ? await run('runuser', ['-u', 'postgres', '--', path, ...args]) : await run(path, args);
  return stdout;
}

async function adminQuery<T>(url: string, text: string): Promise<T[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text)).rows as T[];
  } finally {
    await c.end();
  }
}

/** One value from the primary, through psql (synchronous: a test file decides at load time whether it runs). */
function psqlValue(adminUrl: string, query: string): string {
  return execFileSync('psql', [adminUrl, '-Atc', query], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/**
 * Why a standby cannot be made here (no native server, no psql or pg_basebackup, or the primary
 * takes no replication connections), or null when it can.
 */
export function standbyUnavailable(adminUrl = process.env.FL_PG_ADMIN_URL): string | null {
  if (!adminUrl) return 'FL_PG_ADMIN_URL is not set (no native server)';
  try {
    const bin = binDir(adminUrl);
    if (!existsSync(join(bin, 'pg_basebackup'))) return `no pg_basebackup in ${bin} (set FL_PG_BIN)`;
    const rules = Number(psqlValue(adminUrl, `SELECT count(*) FROM pg_hba_file_rules WHERE 'replication' = ANY(database) AND error IS NULL`));
    return rules > 0 ? null : 'the primary accepts no replication connections (run .ci/allow-replication.sh)';
  } catch (error) {
    return `the primary could not be asked: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}

function binDir(adminUrl: string): string {
  if (process.env.FL_PG_BIN) return process.env.FL_PG_BIN;
  return `/usr/lib/postgresql/${Math.floor(Number(psqlValue(adminUrl, `SHOW server_version_num`)) / 10000)}/bin`;
}

/** Settings a hot standby must hold at least as high as its primary, or it will not start. */
const MATCHED = ['max_connections', 'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions', 'max_locks_per_transaction'];

export async function startStandby(options: { port?: number; adminUrl?: string } = {}): Promise<Standby> {
  const adminUrl = options.adminUrl ?? process.env.FL_PG_ADMIN_URL;
  const why = standbyUnavailable(adminUrl);
  if (why) throw new Error(`cannot make a standby: ${why}`);
  const primary = new URL(adminUrl!);
  const bin = binDir(adminUrl!);
  const port = options.port ?? 15_432 + Math.floor(Math.random() * 2000);
  const dir = mkdtempSync(join(tmpdir(), 'fl-standby-'));
  const data = join(dir, 'data');
  if (asRoot) await run('chown', ['postgres:postgres', dir]);
  chmodSync(dir, 0o755);
  await pgProgram(bin, 'pg_basebackup', ['-h', primary.hostname, '-p', primary.port || '5432', '-U', primary.username || 'postgres', '-D', data, '-R', '-X', 'stream', '-c', 'fast']);
  const settings = await adminQuery<{ name: string; setting: string }>(adminUrl!, `SELECT name, setting FROM pg_settings WHERE name = ANY('{${MATCHED.join(',')}}')`);
  const conf = [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${dir}'`,
    'hot_standby = on',
    'shared_buffers = 32MB',
    'fsync = off',
    // Reads that replay would cancel wait for it a little instead (a read on a busy standby).
    'max_standby_streaming_delay = 5s',
    'hot_standby_feedback = on',
    ...settings.map((s) => `${s.name} = ${s.setting}`),
  ];
  const write = (name: string, text: string) => writeFileSync(join(data, name), `${text}\n`);
  write('postgresql.conf', `${conf.join('\n')}\ninclude_if_exists = 'postgresql.auto.conf'`);
  write('pg_hba.conf', 'local all all trust\nhost all all 127.0.0.1/32 trust');
  if (asRoot) await run('chown', ['-R', 'postgres:postgres', data]);
  const ctl = (...args: string[]) => pgProgram(bin, 'pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', ...args]);
  await ctl('start');
  const admin = new URL(adminUrl!);
  admin.port = String(port);
  admin.hostname = '127.0.0.1';
  const standbyAdmin = admin.toString();
  let running = true;
  const standby: Standby = {
    port,
    urlOf(database) {
      const u = new URL(standbyAdmin);
      u.pathname = `/${database}`;
      return u.toString();
    },
    pauseReplay: async () => void (await adminQuery(standbyAdmin, 'SELECT pg_wal_replay_pause()')),
    resumeReplay: async () => void (await adminQuery(standbyAdmin, 'SELECT pg_wal_replay_resume()')),
    async stop() {
      if (!running) return;
      await ctl('stop', '-m', 'fast');
      running = false;
    },
    async start() {
      if (running) return;
      await ctl('start');
      running = true;
    },
    async caughtUp(timeoutMs = 30_000) {
      const [head] = await adminQuery<{ lsn: string }>(adminUrl!, 'SELECT pg_current_wal_lsn()::text AS lsn');
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const [r] = await adminQuery<{ reached: boolean }>(standbyAdmin, `SELECT pg_last_wal_replay_lsn() >= '${head!.lsn}'::pg_lsn AS reached`);
        if (r?.reached) return;
        if (Date.now() > deadline) throw new Error(`the standby on ${port} did not replay up to ${head!.lsn} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      await standby.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return standby;
}
