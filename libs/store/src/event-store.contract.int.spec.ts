/**
 * The event-store contract (libs/testing/src/event-store.contract.ts) on every store: in memory,
 * each backend of testBackends(), and KurrentDB through its adapter: over the local server that
 * speaks KurrentDB's gRPC protocol (libs/testing/src/kurrentdb/protocol-server.ts), and over a
 * real server too when KURRENTDB_URL is set.
 */
import { eventStoreContract } from '@factledger/testing/event-store-contract';
import { InMemoryEventStore } from './in-memory-event-store';
import { connectKurrentDb } from './kurrentdb/kurrentdb-client';
import { KurrentDbEventStore } from './kurrentdb/kurrentdb-event-store';
import { PostgresEventStore } from './postgres-event-store';
import { createTestDatabase, startLocalKurrentDb, testBackends } from '@factledger/testing';

eventStoreContract('in memory', async () => ({ store: new InMemoryEventStore(), close: async () => undefined }));

for (const backend of testBackends()) {
  eventStoreContract(backend, async () => {
    const database = await createTestDatabase(backend);
    return { store: new PostgresEventStore(database.db), close: () => database.close() };
  });
}

eventStoreContract('KurrentDB (local protocol server)', async () => {
  const server = await startLocalKurrentDb();
  const store = new KurrentDbEventStore(connectKurrentDb(server.url));
  return {
    store,
    close: async () => {
      await store.close();
      await server.close();
    },
  };
});

if (process.env.KURRENTDB_URL) {
  eventStoreContract('KurrentDB (KURRENTDB_URL)', async () => {
    const store = new KurrentDbEventStore(connectKurrentDb(process.env.KURRENTDB_URL!));
    return { store, close: () => store.close() };
  });
}
