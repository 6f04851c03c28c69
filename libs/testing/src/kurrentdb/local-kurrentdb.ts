/**
 * KurrentDB without a KurrentDB server: a local server speaking its gRPC protocol, in this process
 * (protocol-server.ts), and the adapter opened on it when no server is given (tests, benchmarks,
 * `eval --backend kurrentdb` with no KURRENTDB_URL). The protocol code is loaded on first use.
 */
import { type OpenedKurrentDb, openKurrentDbEventStore } from '@factledger/store';
import type { KurrentProtocolServer } from './protocol-server';

export type { KurrentProtocolServer } from './protocol-server';

/** A local server speaking KurrentDB's gRPC protocol, in this process: its URL, its port and how to stop it. */
export async function startLocalKurrentDb(options: { port?: number } = {}): Promise<KurrentProtocolServer> {
  const { startKurrentProtocolServer } = await import('./protocol-server');
  return startKurrentProtocolServer(options);
}

/**
 * The adapter on the server at `url` when one is given, otherwise on a local server speaking
 * KurrentDB's protocol, started for it and stopped by its `close`.
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
