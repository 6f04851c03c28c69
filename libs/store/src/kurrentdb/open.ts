/**
 * The way in to the KurrentDB / EventStoreDB adapter of the event-store port, and to the local
 * server that speaks its protocol (tests, `eval --backend kurrentdb` with no KURRENTDB_URL). The
 * gRPC client and the protocol code are loaded on first use, so a ledger on PostgreSQL alone
 * never loads them.
 */
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
  const [{ connectKurrentDb }, { KurrentDbEventStore }] = await Promise.all([import('./kurrentdb-client'), import('./kurrentdb-event-store')]);
  const client = connectKurrentDb(url);
  return { store: new KurrentDbEventStore(client, prefix), url, close: () => closedWithin(client.dispose()) };
}

/**
 * The adapter on the server at `url` when one is given, otherwise on a local server speaking
 * KurrentDB's protocol, started for it and stopped by its `close` (tests, benchmarks, `eval`).
 */
export async function openKurrentDbOrLocal(url: string | undefined, prefix?: string): Promise<OpenedKurrentDb> {
  if (url) return openKurrentDbEventStore(url, prefix);
  const server = await startLocalKurrentDb();
  const opened = await openKurrentDbEventStore(server.url, prefix).catch(async (error: unknown) => {
    await server.close();
    throw error;
  });
  return {
    ...opened,
    async close() {
      await opened.close();
      await server.close();
    },
  };
}

/** A local server speaking KurrentDB's gRPC protocol, in this process (see protocol-server.ts): its URL and how to stop it. */
export async function startLocalKurrentDb(): Promise<{ url: string; close(): Promise<void> }> {
  const { startKurrentProtocolServer } = await import('./protocol-server');
  return startKurrentProtocolServer();
}
