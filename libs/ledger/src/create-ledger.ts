/** Wires a Ledger from configuration: database, migrations, store, projections, clock. */
import { type Clock, systemClock } from '@factledger/domain';
import { FactReader, PostgresFactProjection, ProjectionRunner } from '@factledger/projections';
import { type Database, migrate, openDatabase, PostgresEventStore } from '@factledger/store';
import { Ledger } from './ledger';
import type { LedgerConfig } from './ledger.config';

export interface LedgerHandle {
  ledger: Ledger;
  database: Database;
  store: PostgresEventStore;
  runner: ProjectionRunner;
  close(): Promise<void>;
}

/** Builds a ledger on an already open database (tests, benchmarks, hosts that own the pool). */
export function ledgerOn(database: Database, options: { clock?: Clock; waitTimeoutMs?: number } = {}): LedgerHandle {
  const store = new PostgresEventStore(database.db);
  const facts = new PostgresFactProjection();
  const runner = new ProjectionRunner(database.db, [facts], { waitTimeoutMs: options.waitTimeoutMs });
  const ledger = new Ledger({ store, runner, inline: facts, reader: new FactReader(database.db), clock: options.clock ?? systemClock });
  return { ledger, database, store, runner, close: () => database.close() };
}

/** Opens the configured database, applies pending migrations, catches the read models up. */
export async function createLedger(config: LedgerConfig, options: { clock?: Clock } = {}): Promise<LedgerHandle> {
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    if (config.migrateOnStart) await migrate(database.db);
    const handle = ledgerOn(database, { clock: options.clock, waitTimeoutMs: config.readWaitMs });
    await handle.runner.catchUp();
    return handle;
  } catch (error) {
    await database.close();
    throw error;
  }
}
