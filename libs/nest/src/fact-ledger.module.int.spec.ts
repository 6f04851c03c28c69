import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnknownMemoryError } from '@factledger/domain';
import { type Ledger, type LedgerHandle, ledgerOn } from '@factledger/ledger';
import { createTestDatabase } from '@factledger/testing';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { FactLedgerModule, LEDGER, LEDGER_HANDLE } from './fact-ledger.module';
import { AssertMemoryCommand, EraseCommand, GetAnswerQuery, GetFactQuery, GetMemoryQuery, QuarantineMemoryCommand, RecordAnswerCommand } from './ledger.commands';

/** A host application's own controller, using the ledger through its buses. */
@Controller()
class HostController {
  constructor(
    readonly commands: CommandBus,
    readonly queries: QueryBus,
  ) {}
}

describe('FactLedgerModule in a host NestJS application', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'factledger-nest-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const boot = async () => {
    @Module({ imports: [FactLedgerModule.forRoot({ config: { dataDir } })], controllers: [HostController] })
    class HostModule {}
    return NestFactory.createApplicationContext(HostModule, { logger: false });
  };

  it('sends commands through the host CommandBus, queries through its QueryBus, and keeps them on disk across restarts', async () => {
    const first = await boot();
    const host = first.get(HostController);
    const written = await host.commands.execute(new AssertMemoryCommand('default', { subject: 'user', relation: 'lives in', value: 'Daejeon', text: 'I live in Daejeon.' }));
    expect(written.outcome).toBe('created');
    const read = await host.queries.execute(new GetFactQuery('default', { subject: 'user', relation: 'lives in', minPosition: written.position }));
    expect(read.value).toBe('Daejeon');
    await expect(host.commands.execute(new QuarantineMemoryCommand('other', { memoryId: written.memoryId }))).rejects.toBeInstanceOf(UnknownMemoryError);
    expect(first.get<Ledger>(LEDGER)).toBeDefined();
    await first.close();

    const second = await boot();
    const again = await second.get(HostController).queries.execute(new GetFactQuery('default', { subject: 'User', relation: 'Lives In' }));
    expect(again.value).toBe('Daejeon');
    await second.close();
  });

  /** Writes a port, an answer citing it, and the port's change; returns the answer's status once reopened or after ~2 s. */
  const supersedeCited = async (host: HostController, tenant: string): Promise<string> => {
    const port = await host.commands.execute(new AssertMemoryCommand(tenant, { subject: 'api', relation: 'port', value: '8000' }));
    const answer = await host.commands.execute(new RecordAnswerCommand(tenant, { text: 'Port 8000.', cites: [port.memoryId] }));
    await host.commands.execute(new AssertMemoryCommand(tenant, { subject: 'api', relation: 'port', value: '8080' }));
    let status = '';
    for (let i = 0; i < 100 && status !== 'reopened'; i++) {
      status = (await host.queries.execute(new GetAnswerQuery(tenant, { answerId: answer.answerId }))).status;
      if (status !== 'reopened') await new Promise((r) => setTimeout(r, 20));
    }
    return status;
  };

  it('reopens an answer through the @nestjs/cqrs saga when a write on the bus supersedes what it cited', async () => {
    // A handle the host owns: no background loop runs, so only the bus-driven saga can reopen.
    const database = await createTestDatabase('pglite');
    const handle = ledgerOn(database);
    const woken = jest.spyOn(handle.saga, 'catchUp');
    @Module({ imports: [FactLedgerModule.forRoot({ handle })], controllers: [HostController] })
    class OwnedHandleModule {}
    const app = await NestFactory.createApplicationContext(OwnedHandleModule, { logger: false });
    expect(await supersedeCited(app.get(HostController), 'sagas')).toBe('reopened');
    expect(woken).toHaveBeenCalled();
    await app.close();
    await database.close();
  });

  it('leaves the saga to the workers where they run: the bus wakes nothing, the follower reopens', async () => {
    // The module's own database (internal workers), and a host handle with its workers started.
    @Module({ imports: [FactLedgerModule.forRoot({ config: { dataDir: mkdtempSync(join(dataDir, 'internal-')) } })], controllers: [HostController] })
    class InternalModule {}
    const internal = await NestFactory.createApplicationContext(InternalModule, { logger: false });
    const ownedWoken = jest.spyOn(internal.get<LedgerHandle>(LEDGER_HANDLE).saga, 'catchUp');
    expect(await supersedeCited(internal.get(HostController), 'internal')).toBe('reopened');
    expect(ownedWoken).not.toHaveBeenCalled();
    await internal.close();

    const database = await createTestDatabase('pglite');
    const handle = ledgerOn(database);
    handle.startWorkers(60_000);
    const hostWoken = jest.spyOn(handle.saga, 'catchUp');
    @Module({ imports: [FactLedgerModule.forRoot({ handle })], controllers: [HostController] })
    class StartedModule {}
    const started = await NestFactory.createApplicationContext(StartedModule, { logger: false });
    expect(await supersedeCited(started.get(HostController), 'started')).toBe('reopened');
    expect(hostWoken).not.toHaveBeenCalled();
    await started.close();
    await handle.stopWorkers();
    await database.close();
  });

  it('runs no saga in a server whose workers are external', async () => {
    @Module({ imports: [FactLedgerModule.forRoot({ config: { dataDir: mkdtempSync(join(dataDir, 'external-')), workers: 'external' } })], controllers: [HostController] })
    class ExternalModule {}
    const app = await NestFactory.createApplicationContext(ExternalModule, { logger: false });
    const handle = app.get<LedgerHandle>(LEDGER_HANDLE);
    const woken = jest.spyOn(handle.saga, 'catchUp');
    const host = app.get(HostController);
    const port = await host.commands.execute(new AssertMemoryCommand('ext', { subject: 'api', relation: 'port', value: '8000' }));
    await host.commands.execute(new AssertMemoryCommand('ext', { subject: 'api', relation: 'port', value: '8080' }));
    // The bus delivers its events after the command returns: give it a moment before counting.
    await new Promise((r) => setTimeout(r, 100));
    expect(port.position).toBeGreaterThan(0);
    expect(woken).not.toHaveBeenCalled();
    expect(handle.workersRunning).toBe(false);
    await app.close();
  });

  it('erases through the host CommandBus, recording the actor the host passes', async () => {
    const database = await createTestDatabase('pglite');
    @Module({ imports: [FactLedgerModule.forRoot({ handle: ledgerOn(database) })], controllers: [HostController] })
    class ErasingModule {}
    const app = await NestFactory.createApplicationContext(ErasingModule, { logger: false });
    const host = app.get(HostController);
    const phone = await host.commands.execute(new AssertMemoryCommand('e', { subject: 'user', relation: 'phone', value: '555-0142' }));
    const erased = await host.commands.execute(new EraseCommand('e', { memoryId: phone.memoryId }, 'host-user-7'));
    expect(erased.memoryIds).toEqual([phone.memoryId]);
    await expect(host.queries.execute(new GetMemoryQuery('e', { memoryId: phone.memoryId }))).rejects.toMatchObject({ code: 'memory_erased', erasure: { actor: 'host-user-7' } });
    await app.close();
    await database.close();
  });
});
