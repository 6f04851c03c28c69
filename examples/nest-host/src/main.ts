/**
 * A NestJS host with factledger installed from its packages: the ledger is a module, its use
 * cases are commands and queries on the host's own buses. The flow is an auditor's: a value, its
 * change, what was believed before and after the change, a quarantine undone by rolling its batch
 * back, and the key's history. The data lives in an embedded PGlite folder of its own.
 *
 *   npm install && npm run build && npm start
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { AssertMemoryCommand, FactLedgerModule, GetFactQuery, GetHistoryQuery, GetMemoryQuery, QuarantineMemoryCommand, RollbackBatchCommand } from '@factledger/nest';
import type { FactView, WriteResult } from '@factledger/core';

const dataDir = mkdtempSync(join(tmpdir(), 'factledger-nest-host-'));

/** The host's own service: it decides the tenant and who acts, and talks to the ledger through its buses. */
@Injectable()
class Auditor {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  assert(value: string, batch?: string): Promise<WriteResult> {
    return this.commands.execute(new AssertMemoryCommand('acme', { subject: 'billing-api', relation: 'port', value, ...(batch ? { batch } : {}) }, 'auditor-1'));
  }

  port(at?: { knownAt?: string; minPosition?: number }): Promise<FactView> {
    return this.queries.execute(new GetFactQuery('acme', { subject: 'billing-api', relation: 'port', ...at }));
  }

  async run(): Promise<void> {
    const first = await this.assert('8000');
    const beforeChange = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    const second = await this.assert('8080');
    check(second.outcome === 'superseded', `the change superseded the old value (${second.outcome})`);

    const now = await this.port({ minPosition: second.position });
    const then = await this.port({ knownAt: beforeChange });
    check(now.value === '8080', `now: 8080 (${now.value})`);
    check(then.value === '8000', `as known before the change: 8000 (${then.value})`);

    const quarantined: WriteResult = await this.commands.execute(new QuarantineMemoryCommand('acme', { memoryId: second.memoryId, batch: 'review-7', reason: 'unverified source' }, 'auditor-1'));
    const hidden = await this.queries.execute(new GetMemoryQuery('acme', { memoryId: second.memoryId, minPosition: quarantined.position }));
    check(hidden.status === 'quarantined', `quarantined (${hidden.status})`);
    const rolledBack = await this.commands.execute(new RollbackBatchCommand('acme', { batch: 'review-7' }, 'auditor-1'));
    const back = await this.queries.execute(new GetMemoryQuery('acme', { memoryId: second.memoryId, minPosition: rolledBack.position }));
    check(back.status === 'active', `active again after the rollback (${back.status})`);

    const history = await this.queries.execute(new GetHistoryQuery('acme', { subject: 'billing-api', relation: 'port', minPosition: rolledBack.position }));
    const values = history.entries.map((e) => e.value);
    check(values.includes('8000') && values.includes('8080'), `history keeps both values (${values.join(', ')})`);
    check(
      history.entries.some((e) => e.memoryId === first.memoryId),
      'history names the first memory',
    );
    console.log(JSON.stringify({ now: now.value, knownBeforeChange: then.value, history: history.entries.length, rollback: rolledBack.position }));
  }
}

let failed = 0;
function check(ok: boolean, what: string): void {
  console.log(`${ok ? 'ok' : 'FAILED'}: ${what}`);
  if (!ok) failed++;
}

@Module({ imports: [FactLedgerModule.forRoot({ config: { dataDir } })], providers: [Auditor] })
class HostModule {}

async function main(): Promise<void> {
  const app = await NestFactory.createApplicationContext(HostModule, { logger: false });
  try {
    await app.get(Auditor).run();
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (failed) {
    console.error(`${failed} check(s) failed`);
    process.exit(1);
  }
}

void main();
