/**
 * `npm start`: the factledger HTTP service. With no configuration it runs on embedded PGlite in
 * FACTLEDGER_DATA_DIR (default .data/factledger); DATABASE_URL switches to PostgreSQL.
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { type LedgerConfig, type LedgerHandle, loadConfig } from '@factledger/ledger';
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

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  let app: INestApplication | undefined;
  try {
    app = await createServer({ logger });
    app.enableShutdownHooks();
    await app.listen(config.port, config.host);
    const address = app.getHttpServer().address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `http://${host}:${address.port}`;
    const handle = app.get<LedgerHandle>(LEDGER_HANDLE);
    logger.info({ url, backend: handle.database.backend }, `factledger listening on ${url}; store: ${describeStore(config, handle)}`);
  } catch (error) {
    logger.fatal({ err: error }, 'factledger failed to start');
    process.exitCode = 1;
    await app?.close().catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  // Only configuration errors get here, before there is a logger to write them.
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
