/**
 * One process at a time on an embedded (PGlite) data folder. PGlite takes no lock of its own: two
 * processes that open one folder both write to it and leave it unreadable (electric-sql/pglite
 * #1106), and the PostgreSQL lock file inside it (`postmaster.pid`) names PGlite's make-believe
 * process, so it guards nothing, while a process killed just as PGlite wrote that file leaves it
 * empty, which PostgreSQL then refuses to start on ("lock file is empty"; the reliability suite's
 * half-way cell found it, docs/reliability.md).
 *
 * So the ledger holds `factledger.pid` in the folder (the holder's process id) while the folder is
 * open. A second open, from this process or another live one, fails with DataFolderInUseError and
 * changes nothing. A file whose process is gone (killed, crashed) is taken over, and with it the
 * folder's `postmaster.pid`, then a remnant of that process, is removed before PGlite starts.
 *
 * Hand-written rather than `proper-lockfile`: that library tells a stale lock by its age, so a
 * folder whose holder was killed would stay refused for the staleness period; here a lock is
 * stale exactly when its process is gone.
 */
import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LedgerError } from '@factledger/domain';

export const LOCK_FILE = 'factledger.pid';

/** The data folder is open in a live process (this one or another). Nothing was opened. */
export class DataFolderInUseError extends LedgerError {
  readonly code = 'data_folder_in_use';
  constructor(
    readonly folder: string,
    readonly pid: number,
  ) {
    super(
      pid === process.pid
        ? `the data folder ${folder} is already open in this process; close it first`
        : `the data folder ${folder} is open in process ${pid}; stop that process (a server, a worker, another CLI command) first, or run both against one PostgreSQL server (DATABASE_URL). If no factledger process uses the folder, delete ${join(folder, LOCK_FILE)}`,
    );
  }
}

/** Folders this process holds. */
const held = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the folder (which must exist) for this process, or throws DataFolderInUseError. Returns
 * the release, which removes the lock file while it still names this process.
 */
export function lockDataFolder(path: string): () => void {
  const folder = resolve(path);
  if (held.has(folder)) throw new DataFolderInUseError(folder, process.pid);
  const file = join(folder, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
    }
    let pid = Number.NaN;
    try {
      pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    } catch {
      // Gone between the two calls: try again.
    }
    // Our own process id in a file this process does not hold: a previous process's, reused.
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw new DataFolderInUseError(folder, pid);
    rmSync(file, { force: true });
  }
  held.add(folder);
  // Under the lock no live process has PGlite open here: PostgreSQL's lock file is a dead one's.
  rmSync(join(folder, 'postmaster.pid'), { force: true });
  return () => {
    held.delete(folder);
    try {
      if (Number.parseInt(readFileSync(file, 'utf8'), 10) === process.pid) unlinkSync(file);
    } catch {
      // Already gone.
    }
  };
}
