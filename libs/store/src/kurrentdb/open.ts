/**
 * The way in to the KurrentDB / EventStoreDB adapter of the event-store port. The gRPC client is
 * loaded on first use, so a ledger on PostgreSQL alone never loads it: `@eventstore/db-client` is an
 * optional peer of @factledger/core, and when it is not installed opening the adapter says so in
 * one line (OptionalPackageMissingError). (The local server that
 * speaks its protocol, for tests and `eval`, is a test double: @factledger/testing.)
 */
import { loadOptionalPackage } from '@factledger/domain';
import type { EventStore } from '../event-store.port';
import { closedWithin } from '../database';

export interface OpenedKurrentDb {
  store: EventStore;
  /** The server's connection string. */
  url: string;
  /** Releases the client's channel. */
  close(): Promise<void>;
}

/**
 * The adapter on a server (`kurrentdb://host:2113?tls=false`, or esdb://). `prefix` names this
 * ledger's streams: ledgers with different prefixes share a server and never see each other's
 * events (default `factledger-`).
 */
export async function openKurrentDbEventStore(url: string, prefix?: string): Promise<OpenedKurrentDb> {
  const [{ connectKurrentDb }, { KurrentDbEventStore }] = await loadOptionalPackage('@eventstore/db-client', 'the KurrentDB event store (KURRENTDB_URL)', () =>
    Promise.all([import('./kurrentdb-client'), import('./kurrentdb-event-store')]),
  );
  const client = connectKurrentDb(url);
  return { store: new KurrentDbEventStore(client, prefix), url, close: () => closedWithin(client.dispose()) };
}
