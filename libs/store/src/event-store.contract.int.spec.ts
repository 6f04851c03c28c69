/** The event-store contract (event-store.contract.ts) on every store: in memory, and each backend of testBackends(). */
import { eventStoreContract } from './event-store.contract';
import { InMemoryEventStore } from './in-memory-event-store';
import { PostgresEventStore } from './postgres-event-store';
import { createTestDatabase, testBackends } from './test-database';

eventStoreContract('in memory', async () => ({ store: new InMemoryEventStore(), close: async () => undefined }));

for (const backend of testBackends()) {
  eventStoreContract(backend, async () => {
    const database = await createTestDatabase(backend);
    return { store: new PostgresEventStore(database.db), close: () => database.close() };
  });
}
