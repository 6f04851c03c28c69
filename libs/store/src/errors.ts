/** Errors of the event store, typed so callers can retry or report them precisely. */
import { LedgerError } from '@factledger/domain';
import type { RecordedEvent } from './event-store.port';

/**
 * Another writer changed the stream first; re-read and decide again. `current`, when the store
 * could give it with the refusal, is the stream as it stands: no need to read it back.
 */
export class ExpectedVersionConflict extends LedgerError {
  readonly code = 'version_conflict';
  constructor(
    readonly streamId: string,
    readonly expected: string,
    readonly actual: number,
    readonly current?: { version: number; events: RecordedEvent[] },
  ) {
    super(`stream ${streamId} is at version ${actual}, expected ${expected}; re-read it and decide again`);
  }
}

/** The log's store cannot do what was asked (e.g. rewrite an event in place on KurrentDB). Nothing was changed. */
export class StoreCapabilityError extends LedgerError {
  readonly code = 'not_supported_by_store';
  constructor(
    readonly capability: string,
    readonly store: string,
  ) {
    super(`${store} cannot ${capability}; this needs the PostgreSQL event store`);
  }
}

/**
 * The append's follow-up refused it (it raised SQLSTATE FL412): nothing was written. `detail` is
 * the follow-up's reason as it gave it (JSON), for the writer that made the follow-up to read and
 * decide again on. To anyone else it is a version conflict: what the write was decided on changed.
 */
export class FollowUpRefused extends LedgerError {
  readonly code = 'version_conflict';
  constructor(readonly detail: unknown) {
    super('what this write was decided on changed before it landed; decide again');
  }
}

/** The SQLSTATE a follow-up raises to refuse an append (see FollowUpRefused). */
export const FOLLOW_UP_REFUSED = 'FL412';

/** How to install each PostgreSQL extension the migrations create, for the one line a newcomer reads. */
const EXTENSION_HINTS: Record<string, string> = {
  vector: 'pgvector: on Debian or Ubuntu `apt install postgresql-<major>-pgvector`, elsewhere see https://github.com/pgvector/pgvector#installation',
  pg_trgm: "it ships with PostgreSQL's contrib modules (Debian: part of the postgresql package; elsewhere postgresql-contrib)",
  btree_gist: "it ships with PostgreSQL's contrib modules (Debian: part of the postgresql package; elsewhere postgresql-contrib)",
};

/**
 * The PostgreSQL server lacks an extension the schema needs (it is not installed on the server,
 * so CREATE EXTENSION cannot work). Found before anything is applied: nothing was changed.
 */
export class MissingExtensionError extends LedgerError {
  readonly code = 'missing_extension';
  constructor(readonly extensions: string[]) {
    const hints = extensions.map((e) => `${e} (${EXTENSION_HINTS[e] ?? 'install it on the database server'})`);
    super(
      `the PostgreSQL server lacks the extension${extensions.length > 1 ? 's' : ''} ${hints.join('; ')}; install ${extensions.length > 1 ? 'them' : 'it'} there and start again, or leave DATABASE_URL unset to run on the embedded PGlite, which has them`,
    );
  }
}

/**
 * The database could not do the work for a reason that passes (it is unreachable, restarting or
 * shutting down, the connection was cut, a statement ran past its timeout, it ran out of disk or
 * connections, a transaction lost a serialization race): nothing was written, and the same
 * request may succeed later. The HTTP layer answers 503 with this reason; `code` says which.
 */
export class DatabaseUnavailableError extends LedgerError {
  constructor(
    readonly code: 'database_unavailable' | 'database_timeout' | 'database_full',
    message: string,
  ) {
    super(message);
  }
}

/** SQLSTATEs that mean "not now" rather than "not this": the connection classes, shutdowns, resources, timeouts, races. */
const PASSING_SQLSTATE: Readonly<Record<string, DatabaseUnavailableError['code']>> = {
  '57P01': 'database_unavailable', // admin_shutdown (a restart, a terminated backend)
  '57P02': 'database_unavailable', // crash_shutdown
  '57P03': 'database_unavailable', // cannot_connect_now (starting up, shutting down)
  '53300': 'database_unavailable', // too_many_connections
  '53200': 'database_full', // out_of_memory
  '53100': 'database_full', // disk_full
  '57014': 'database_timeout', // query_canceled: statement_timeout
  '55P03': 'database_timeout', // lock_not_available: lock_timeout
  '40001': 'database_unavailable', // serialization_failure
  '40P01': 'database_unavailable', // deadlock_detected
};
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** What node-postgres says when a connection it held or was making went away. */
const DRIVER_MESSAGES = [/^Connection terminated/, /connection error and is not queryable/, /^timeout exceeded when trying to connect/, /^Client was closed and is not queryable/];

/**
 * The error as a DatabaseUnavailableError when it is one of the passing database faults above
 * (from node-postgres or the network), else null: anything else is a bug and stays a 500.
 */
export function databaseFault(error: unknown): DatabaseUnavailableError | null {
  if (error instanceof DatabaseUnavailableError) return error;
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.startsWith('08')) return new DatabaseUnavailableError('database_unavailable', `the database connection failed (${code}): ${error.message}`);
    const kind = PASSING_SQLSTATE[code];
    if (kind) return new DatabaseUnavailableError(kind, `the database could not do it now (${code}): ${error.message}`);
    if (NETWORK_CODES.has(code)) return new DatabaseUnavailableError('database_unavailable', `the database cannot be reached (${code})`);
  }
  if (DRIVER_MESSAGES.some((m) => m.test(error.message))) return new DatabaseUnavailableError('database_unavailable', `the database connection was lost: ${error.message}`);
  // AggregateError (a connect that tried several addresses) carries its causes.
  const inner = (error as { errors?: unknown[]; cause?: unknown }).errors?.[0] ?? (error as { cause?: unknown }).cause;
  return inner && inner !== error ? databaseFault(inner) : null;
}
