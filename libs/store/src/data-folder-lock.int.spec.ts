/**
 * The embedded data folder is one process's at a time (data-folder-lock.ts), on a real PGlite
 * folder: a second open is refused while the first holds it, a folder whose holder was killed is
 * taken over, and a folder left with an empty PostgreSQL lock file (a kill while PGlite wrote it)
 * opens with its data.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { DataFolderInUseError, LOCK_FILE } from './data-folder-lock';
import { openDatabase } from './database';

describe('an embedded data folder, one process at a time', () => {
  const root = mkdtempSync(join(tmpdir(), 'fl-folder-lock-'));
  let n = 0;
  const folder = (): string => join(root, `data-${n++}`);
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });
  /** A live process that is not this one. */
  const otherProcess = async (): Promise<ChildProcess> => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(child);
    await new Promise((resolve) => child.once('spawn', resolve));
    return child;
  };
  const gone = async (child: ChildProcess): Promise<void> => {
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
  };
  /** A folder opened, given a table t holding x, and closed again. */
  const folderHolding = async (x: number): Promise<string> => {
    const dir = folder();
    const made = await openDatabase({ dataDir: dir });
    await sql`CREATE TABLE t (x int)`.execute(made.db);
    await sql`INSERT INTO t VALUES (${x})`.execute(made.db);
    await made.close();
    return dir;
  };

  it('refuses a second open while the first holds the folder, from this process, and opens again once it is closed', async () => {
    const dir = folder();
    const first = await openDatabase({ dataDir: dir });
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataFolderInUseError);
    await expect(openDatabase({ dataDir: join(dir, '..', `data-${n - 1}`) })).rejects.toMatchObject({ code: 'data_folder_in_use', pid: process.pid });
    // The refusal took nothing from the holder.
    await sql`CREATE TABLE t (x int)`.execute(first.db);
    await first.close();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const again = await openDatabase({ dataDir: dir });
    await sql`INSERT INTO t VALUES (1)`.execute(again.db);
    await again.close();
  });

  it('refuses a folder another live process holds, naming it, and takes it over once that process is gone', async () => {
    const dir = await folderHolding(7);
    const holder = await otherProcess();
    writeFileSync(join(dir, LOCK_FILE), `${holder.pid}\n`);
    const refused = await openDatabase({ dataDir: dir }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DataFolderInUseError);
    expect((refused as DataFolderInUseError).pid).toBe(holder.pid);
    expect((refused as Error).message).toContain(`process ${holder.pid}`);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(holder.pid));
    await gone(holder);
    const taken = await openDatabase({ dataDir: dir });
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    expect((await sql<{ x: number }>`SELECT x FROM t`.execute(taken.db)).rows).toEqual([{ x: 7 }]);
    await taken.close();
  });

  it('opens a folder whose holder was killed as PGlite wrote its PostgreSQL lock file (left empty), with its data', async () => {
    const dir = await folderHolding(3);
    // What a SIGKILL between the file's creation and its first line leaves, with the dead holder's own lock.
    writeFileSync(join(dir, 'postmaster.pid'), '');
    const dead = await otherProcess();
    await gone(dead);
    writeFileSync(join(dir, LOCK_FILE), `${dead.pid}\n`);
    const reopened = await openDatabase({ dataDir: dir });
    expect((await sql<{ x: number }>`SELECT x FROM t`.execute(reopened.db)).rows).toEqual([{ x: 3 }]);
    await reopened.close();
  });
});
