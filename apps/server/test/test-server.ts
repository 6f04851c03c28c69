/**
 * The end-to-end tests' server: a fresh database of one backend, a ledger and recall on it (the
 * real offline embedder, shared by every test in a process), the HTTP server on a random loopback
 * port. `prepare` runs before the server starts (to make API keys, say).
 */
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { systemClock } from '@factledger/domain';
import { UseLiteEmbedder } from '@factledger/embeddings';
import { type LedgerHandle, ledgerOn } from '@factledger/ledger';
import { type RecallHandle, type RecallSettings, recallOn } from '@factledger/recall';
import type { Backend, ReadReplicas } from '@factledger/store';
import { createTestDatabase, type TestDatabase } from '@factledger/testing';
import type { ServerOptions } from '../src/app.module';
import { createServer } from '../src/create-server';

let embedder: UseLiteEmbedder | null = null;

export interface TestServer {
  database: TestDatabase;
  handle: LedgerHandle;
  recall: RecallHandle;
  app: INestApplication;
  /** `http://127.0.0.1:<port>` */
  base: string;
  close(): Promise<void>;
}

export async function startTestServer(
  backend: Backend,
  options: {
    config?: ServerOptions['config'];
    prepare?: (handle: LedgerHandle) => Promise<void>;
    startRecall?: boolean;
    /** Standbys of the new database for reads to be served from (closed with the server). */
    replicas?: (database: TestDatabase) => Promise<ReadReplicas>;
  } = {},
): Promise<TestServer> {
  const database = await createTestDatabase(backend);
  const replicas = await options.replicas?.(database);
  const handle = ledgerOn(database, { replicas });
  await options.prepare?.(handle);
  const settings: RecallSettings = { embeddings: 'use-lite', addressTerms: [], traceRetentionDays: 30, indexIntervalMs: 20 };
  const recall = recallOn(database, handle.runner, systemClock, settings, (embedder ??= new UseLiteEmbedder()), handle.replicas);
  if (options.startRecall) recall.start();
  const app = await createServer({ handle, recall, config: { logLevel: 'silent', ...options.config } });
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  return {
    database,
    handle,
    recall,
    app,
    base,
    async close() {
      if (options.startRecall) await recall.stop();
      await app.close();
      await replicas?.close();
      await database.close();
    },
  };
}
