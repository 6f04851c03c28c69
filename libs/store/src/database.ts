/**
 * Opens the ledger's database: embedded PGlite (persisted to a folder, or in memory) or a
 * native PostgreSQL server. Both are driven by Kysely's own PostgresDialect over a `pg.Pool`,
 * so every query runs through one code path.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { vector } from '@electric-sql/pglite-pgvector';
import { CompiledQuery, Kysely, PostgresDialect, type PostgresDialectConfig, sql } from 'kysely';
import { Client, type ClientBase, Pool, type PoolClient, types } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { lockDataFolder } from './data-folder-lock';
import type { DatabaseSchema } from './schema';

// int8 (global positions, counts) as JS numbers: positions stay far below 2^53.
types.setTypeParser(types.builtins.INT8, (v) => Number(v));

export type Backend = 'pglite' | 'postgres';

export interface DatabaseOptions {
  /** A PostgreSQL connection string; when absent the embedded PGlite is used. */
  url?: string;
  /** PGlite data folder; `memory://` (or absent) keeps everything in memory. */
  dataDir?: string;
  poolSize?: number;
  /** How long a new connection may take (native PostgreSQL; default CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
}

export interface Database {
  db: Kysely<DatabaseSchema>;
  /**
   * For read-only searches that run the same few statements many times (recall's retrievers). On
   * native PostgreSQL, connections of their own on which each statement is prepared once and
   * planned once for any parameters (SEARCH_SETTINGS), so a search pays neither parsing nor
   * planning again; only statements whose plan does not depend on their parameters belong here.
   * On PGlite, `db` itself.
   */
  search: Kysely<DatabaseSchema>;
  backend: Backend;
  /** Runs `work` on one connection of its own, which can also bulk-load rows (see Session). */
  session<T>(work: (session: Session) => Promise<T>): Promise<T>;
  /** Whether sessions may run at the same time, each on a connection of its own (not on PGlite: one connection). */
  readonly concurrentSessions: boolean;
  close(): Promise<void>;
}

/**
 * One connection, for work that needs more than SQL text: `copyIn` loads rows with
 * `COPY … FROM`, several times faster than any INSERT for a bulk load (a projection rebuild).
 * It runs inside whatever transaction `db` has open. Native PostgreSQL takes the rows as
 * `COPY FROM STDIN` (pg-copy-streams); PGlite cannot speak that part of the protocol, so it
 * takes the same text as its own `/dev/blob` file. The statement is the same on both.
 */
export interface Session {
  db: Kysely<DatabaseSchema>;
  /**
   * `chunks`: the rows in COPY's text format (see copyRows), in as many pieces as convenient.
   * `freeze`: write them frozen, hint bits and visibility map set, as a VACUUM would leave them;
   * only allowed into a table created or truncated in the same transaction.
   */
  copyIn(table: string, columns: readonly string[], chunks: Iterable<string> | AsyncIterable<string>, options?: { freeze?: boolean }): Promise<void>;
}

const copyStatement = (table: string, columns: readonly string[], source: string, options: { freeze?: boolean } = {}): string =>
  `COPY ${quoteIdent(table)} (${columns.map(quoteIdent).join(', ')}) FROM ${source}${options.freeze ? ' WITH (FREEZE)' : ''}`;
const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * Settings each connection of `db` runs with, set once when `db` first uses it, so that no
 * statement needs a transaction of its own (BEGIN, SET LOCAL, COMMIT) just to carry them. They
 * are search settings of the schema's extensions, read by recall:
 * - `hnsw.ef_search`: candidates an HNSW search keeps, half again the 40 recall takes (pgvector's
 *   default is 40). Recall filters the search by visibility, and superseded versions sit right
 *   beside the current ones; with only 40 kept, one of them among the nearest sent the search on
 *   for more, which cost more than keeping 60 from the start (on 100k facts, p50 1.5 → 1.0 ms);
 * - `hnsw.iterative_scan`: a nearest-neighbour search whose rows a filter rejects (versions no
 *   longer visible) scans on until enough pass, instead of returning fewer;
 * - `pg_trgm.word_similarity_threshold`: how alike a word must be for the trigram operator `<%`.
 * Before the extensions' libraries load in a session these are placeholders, which the libraries
 * take up when they load.
 */
export const SESSION_SETTINGS: Readonly<Record<string, string>> = {
  'hnsw.ef_search': '60',
  'hnsw.iterative_scan': 'relaxed_order',
  'pg_trgm.word_similarity_threshold': '0.5',
};

/**
 * What the search connections add to SESSION_SETTINGS:
 * - `plan_cache_mode`: a prepared statement keeps one plan, made without its parameters' values,
 *   instead of PostgreSQL's default (plan each of the first five executions for their values, then
 *   choose by estimated cost, which may mean planning every time: 0.3–0.7 ms a retriever statement
 *   on 100k facts). Only statements whose best plan does not depend on the values belong on these
 *   connections;
 * - `jit`: off. A generic plan's cost estimates can pass the JIT threshold, and compiling then
 *   costs ~50 ms for a statement that runs in two.
 */
export const SEARCH_SETTINGS: Readonly<Record<string, string>> = { plan_cache_mode: 'force_generic_plan', jit: 'off' };

const settingsStatement = (settings: Readonly<Record<string, string>>): string =>
  `SELECT ${Object.entries(settings)
    .map(([name, value]) => `set_config(${literal(name)}, ${literal(value)}, false)`)
    .join(', ')}`;
/** The session settings on PGlite's one connection, when Kysely first takes it. */
const applySessionSettings: PostgresDialectConfig['onCreateConnection'] = async (connection) => {
  await connection.executeQuery(CompiledQuery.raw(settingsStatement(SESSION_SETTINGS)));
};
/**
 * The session settings on a native PostgreSQL connection, as the pool makes it (pg-pool's
 * `onConnect`): a connection that fails them (cut as it is set up) is ended and dropped by the
 * pool. Set up in Kysely's `onCreateConnection` instead, such a connection stayed checked out for
 * good: one fewer in the pool, and closing the pool waited for it forever (reliability.md, "a
 * clean stop that never ends"). Every connection gets them, also one first taken by `session`.
 */
const settingsOnConnect =
  (settings: Readonly<Record<string, string>>) =>
  async (client: ClientBase): Promise<void> => {
    await client.query(settingsStatement(settings));
  };

/**
 * Marks a statement to be prepared once per connection (see PreparingClient): put it first,
 * `sql\`${PREPARED}SELECT …\``. For statements run many times a second whose planning would cost
 * more than their execution (a message's word lookup). PostgreSQL's default plan cache applies to
 * them: each of the first five executions is planned for its values, then a generic plan is kept
 * when its estimated cost is no worse. There are as many prepared statements as distinct marked
 * texts, so mark only statements whose text takes a few shapes.
 */
const PREPARED_MARK = '/* prepared */ ';
export const PREPARED = sql.raw(PREPARED_MARK);

/**
 * A connection that prepares statements under a name made from their text, so that the server
 * parses (and, as its plan cache decides, plans) each once per connection; pg then sends only the
 * parameters. `all`: every statement (the search connections); otherwise only those marked
 * PREPARED. Kysely hands statements to the driver as text, so this is where naming them can
 * happen. (Results stay in text: pg's protocol parser reads every field as UTF-8 text.)
 */
function preparingClient(all: boolean): typeof Client {
  return class PreparingClient extends Client {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override query(config: any, values?: any, callback?: any): any {
      if (typeof config === 'string' && (all || config.startsWith(PREPARED_MARK)) && (values === undefined || Array.isArray(values)) && callback === undefined) {
        return super.query({ name: `fl_${createHash('sha1').update(config).digest('hex').slice(0, 24)}`, text: config, values });
      }
      return super.query(config, values, callback);
    }
  };
}
const SearchClient = preparingClient(true);
const MarkedClient = preparingClient(false);

const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** A Kysely instance that runs every query on `client` (the caller releases it). */
function onClient(client: PoolClient): Kysely<DatabaseSchema> {
  const held = { query: client.query.bind(client), release: () => undefined };
  const pool = { connect: async () => held, end: async () => undefined };
  return new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
}

const survivesLostConnection = (client: PoolClient): void => {
  client.on('error', () => undefined);
};

/** How long closing a connection pool or a client waits for the work still on it. */
const CLOSE_MS = 5000;

/**
 * `closing`, or CLOSE_MS, whichever ends first. Closing waits for what is still in use to come
 * back; a connection that never did (reliability.md, "a clean stop that never ends": one whose
 * session settings failed, now dropped by the pool, see `settingsOnConnect`) or a gRPC call that
 * never ends must not keep a stopping process alive. The process's exit ends what is left.
 */
export function closedWithin(closing: Promise<void>): Promise<void> {
  const bound = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_MS).unref());
  return Promise.race([closing, bound]);
}

/** How long a new connection to native PostgreSQL may take before the work that wanted it fails. */
export const CONNECT_TIMEOUT_MS = 5000;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    // A connection not made within CONNECT_TIMEOUT_MS fails (a 503 over HTTP) rather than hang a request.
    const pool = new Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      Client: MarkedClient,
      connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      onConnect: settingsOnConnect(SESSION_SETTINGS),
    });
    // A connection the server ends (a restart, a forced drop, an idle timeout) must not crash the
    // process: pg emits 'error' on the pool for an idle one and on the client itself for one that
    // is checked out, with nobody listening. Every client gets a listener when it is made; the
    // work in flight on it still fails (a 503 over HTTP), and the pool drops it when it comes back.
    pool.on('error', () => undefined);
    pool.on('connect', survivesLostConnection);
    const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
    const searchPool = new Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      Client: SearchClient,
      connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      onConnect: settingsOnConnect({ ...SESSION_SETTINGS, ...SEARCH_SETTINGS }),
    });
    searchPool.on('error', () => undefined);
    searchPool.on('connect', survivesLostConnection);
    const search = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool: searchPool }) });
    const session = async <T>(work: (s: Session) => Promise<T>): Promise<T> => {
      const client = await pool.connect();
      try {
        return await work({
          db: onClient(client),
          copyIn: (table, columns, chunks, options) => pipeline(Readable.from(chunks), client.query(copyFrom(copyStatement(table, columns, 'STDIN', options)))),
        });
      } finally {
        client.release();
      }
    };
    return {
      db,
      search,
      backend: 'postgres',
      session,
      concurrentSessions: true,
      close: () => closedWithin(Promise.all([db.destroy(), search.destroy()]).then(() => undefined)),
    };
  }
  const dataDir = options.dataDir && options.dataDir !== 'memory://' ? options.dataDir : undefined;
  const extensions = { vector, pg_trgm, btree_gist };
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // One process at a time on a folder (data-folder-lock.ts).
  const release = dataDir ? lockDataFolder(dataDir) : () => undefined;
  let pglite: PGlite;
  try {
    pglite = dataDir ? await PGlite.create(dataDir, { extensions }) : await PGlite.create({ extensions });
  } catch (error) {
    release();
    throw error;
  }
  // PGlite is one session: the pool must keep a single connection (createPgConfig sets it),
  // which also serialises transactions.
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool: new Pool({ ...createPgConfig(pglite), Client: MarkedClient }), onCreateConnection: applySessionSettings }) });
  return {
    db,
    search: db,
    backend: 'pglite',
    concurrentSessions: false,
    // The one session: `db` already is it, and PGlite runs the COPY inside its open transaction.
    session: (work) =>
      work({
        db,
        copyIn: async (table, columns, chunks, options) => {
          const parts: string[] = [];
          for await (const chunk of chunks) parts.push(chunk);
          await pglite.query(copyStatement(table, columns, "'/dev/blob'", options), [], { blob: new Blob(parts) });
        },
      }),
    close: async () => {
      try {
        await db.destroy();
        await pglite.close();
      } finally {
        release();
      }
    },
  };
}
