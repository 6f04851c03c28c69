/**
 * The one file that imports the KurrentDB client. `@eventstore/db-client` is the package the brief
 * names; `@kurrent/kurrentdb-client` is its renamed successor with the same calls, so moving to it
 * is a change of this file alone.
 *
 * `kurrentdb://` URLs (the successor's scheme, which `KURRENTDB_URL` takes) are read as the
 * `esdb://` URLs this client knows; both carry the same options (`?tls=false`, `?node=…`).
 */
import { ANY, BACKWARDS, END, EventStoreDBClient, FORWARDS, jsonEvent, NO_STREAM, START, StreamNotFoundError, streamNameFilter, WrongExpectedVersionError } from '@eventstore/db-client';

export { ANY, BACKWARDS, END, FORWARDS, jsonEvent, NO_STREAM, START, StreamNotFoundError, streamNameFilter, WrongExpectedVersionError };
export type { AllStreamResolvedEvent, Position, ResolvedEvent } from '@eventstore/db-client';
export type KurrentClient = EventStoreDBClient;

/** A client for `url` (`kurrentdb://host:2113?tls=false`, or `esdb://…`); it connects on first use. */
export function connectKurrentDb(url: string): KurrentClient {
  const scheme = /^(kurrentdb|kdb|esdb)(\+discover)?:\/\//i.exec(url);
  if (!scheme) throw new Error(`KURRENTDB_URL must start with kurrentdb:// or esdb://, got ${url.replace(/\/\/[^@/]*@/, '//…@')}`);
  return EventStoreDBClient.connectionString(`esdb${scheme[2] ?? ''}://${url.slice(scheme[0].length)}`);
}
