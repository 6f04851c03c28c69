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
  pg_trgm: 'it ships with PostgreSQL\'s contrib modules (Debian: part of the postgresql package; elsewhere postgresql-contrib)',
  btree_gist: 'it ships with PostgreSQL\'s contrib modules (Debian: part of the postgresql package; elsewhere postgresql-contrib)',
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
