/**
 * `npm start`: the factledger HTTP service. With no configuration it runs on embedded PGlite in
 * FACTLEDGER_DATA_DIR (default .data/factledger); DATABASE_URL switches to PostgreSQL.
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { LedgerError } from '@factledger/domain';
import { type LedgerConfig, type LedgerHandle, loadConfig } from '@factledger/ledger';
import { migrateDatabase } from '@factledger/store';
import { LEDGER_HANDLE } from '@factledger/nest';
import { createServer } from './create-server';
import { createLogger } from './logging';

function describeStore(config: LedgerConfig, handle: LedgerHandle): string {
  if (handle.database.backend === 'postgres' && config.databaseUrl) {
    const url = new URL(config.databaseUrl);
    return `PostgreSQL at ${url.host}${url.pathname}`;
  }
  return config.dataDir === 'memory://' ? 'embedded PGlite in memory' : `embedded PGlite at ${resolve(config.dataDir)}`;
}

/**
 * On PostgreSQL, the schema is brought up to date before the application starts, so that what a
 * migration cannot do (MissingExtensionError: pgvector not installed on the server) stops start-up
 * with its one line, not with the stack of a provider that failed inside Nest. The embedded PGlite
 * brings its extensions along and migrates as the ledger opens it.
 */
async function schemaReady(config: LedgerConfig): Promise<void> {
  if (config.databaseUrl && config.migrateOnStart) await migrateDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  let app: INestApplication | undefined;
  try {
    await schemaReady(config);
    app = await createServer({ logger });
    app.enableShutdownHooks();
    await app.listen(config.port, config.host);
    const address = app.getHttpServer().address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `http://${host}:${address.port}`;
    const handle = app.get<LedgerHandle>(LEDGER_HANDLE);
    logger.info({ url, backend: handle.database.backend }, `factledger listening on ${url}; store: ${describeStore(config, handle)}`);
  } catch (error) {
    // What a newcomer can fix (an extension the server lacks, say) is one line; anything else keeps its stack.
    if (error instanceof LedgerError) logger.fatal({ code: error.code }, `factledger failed to start: ${error.message}`);
    else logger.fatal({ err: error }, 'factledger failed to start');
    process.exitCode = 1;
    await app?.close().catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  // Only configuration errors get here, before there is a logger to write them.
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
