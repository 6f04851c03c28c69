/**
 * Opens the ledger's database: embedded PGlite (persisted to a folder, or in memory) or a
 * native PostgreSQL server. Both are driven by Kysely's own PostgresDialect over a `pg.Pool`,
 * so every query runs through one code path.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { vector } from '@electric-sql/pglite-pgvector';
import { Kysely, PostgresDialect } from 'kysely';
import { Pool, types } from 'pg';

// int8 (global positions, counts) as JS numbers: positions stay far below 2^53.
types.setTypeParser(types.builtins.INT8, (v) => Number(v));

export type Backend = 'pglite' | 'postgres';

export interface DatabaseOptions {
  /** A PostgreSQL connection string; when absent the embedded PGlite is used. */
  url?: string;
  /** PGlite data folder; `memory://` (or absent) keeps everything in memory. */
  dataDir?: string;
  poolSize?: number;
}

export interface Database {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>;
  backend: Backend;
  close(): Promise<void>;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const pool = new Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle connection the server ends (a restart, a forced drop, an idle timeout) is simply
    // dropped from the pool; unhandled, pg would crash the process. Queries in flight still fail.
    pool.on('error', () => undefined);
    const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    return { db, backend: 'postgres', close: () => db.destroy() };
  }
  const dataDir = options.dataDir && options.dataDir !== 'memory://' ? options.dataDir : undefined;
  const extensions = { vector, pg_trgm, btree_gist };
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pglite = dataDir ? await PGlite.create(dataDir, { extensions }) : await PGlite.create({ extensions });
  // PGlite is one session: the pool must keep a single connection (createPgConfig sets it),
  // which also serialises transactions.
  const db = new Kysely({ dialect: new PostgresDialect({ pool: new Pool(createPgConfig(pglite)) }) });
  return {
    db,
    backend: 'pglite',
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}
