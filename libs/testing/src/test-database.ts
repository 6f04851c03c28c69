/**
 * Fresh, migrated databases for tests and benchmarks: an in-memory PGlite, or a new database
 * created on a native server (from an admin connection string) and dropped again afterwards,
 * so that a server left running with old data changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { type AppendContext, type Backend, type Database, migrate, openDatabase } from '@factledger/store';

export interface TestDatabase extends Database {
  name: string;
  /** Connection string of the native database (null on PGlite), for a test that needs a connection of its own. */
  url: string | null;
}

/** Backends the suite runs against: PGlite always, native PostgreSQL when FL_PG_ADMIN_URL is set. */
export function testBackends(): Backend[] {
  return process.env.FL_PG_ADMIN_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export async function createTestDatabase(
  backend: Backend,
  options: { migrate?: boolean; /** native only: the tablespace the new database lives in */ tablespace?: string } = {},
): Promise<TestDatabase> {
  let database: Database;
  let name = 'memory';
  let connectionString: string | null = null;
  let drop = async (): Promise<void> => undefined;
  if (backend === 'postgres') {
    const adminUrl = process.env.FL_PG_ADMIN_URL;
    if (!adminUrl) throw new Error('FL_PG_ADMIN_URL is not set: cannot create a native test database');
    name = `fl_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}${options.tablespace ? ` TABLESPACE "${options.tablespace}"` : ''}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    connectionString = url.toString();
    database = await openDatabase({ url: connectionString });
    drop = async () => {
      const c = new Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  } else {
    database = await openDatabase({});
  }
  if (options.migrate !== false) await migrate(database.db);
  return {
    ...database,
    name,
    url: connectionString,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}

/** An append context for tests: tenant `t1`, no ids, no batch, a fixed time; `over` replaces any of it. */
export function testAppendContext(over: Partial<AppendContext> = {}): AppendContext {
  return { tenant: 't1', commandId: null, causationId: null, correlationId: null, batch: null, recordedAt: new Date('2026-12-01T00:00:00Z'), ...over };
}
