/**
 * FactLedgerModule: what a host NestJS backend imports to get the ledger. Commands go through
 * its CommandBus, queries through its QueryBus; the Ledger itself is injectable by LEDGER.
 *
 *   @Module({ imports: [FactLedgerModule.forRoot({ config: { databaseUrl } })] })
 */
import { type DynamicModule, Inject, Injectable, Module, type OnModuleDestroy, type Provider, type Type } from '@nestjs/common';
import { CommandHandler, CqrsModule, QueryHandler } from '@nestjs/cqrs';
import type { Clock } from '@factledger/domain';
import { createLedger, type Ledger, type LedgerConfig, type LedgerHandle, loadConfig } from '@factledger/ledger';
import type { Recall, RecallResult } from '@factledger/recall';
import { AssembleContextQuery, COMMAND_ROUTES, QUERY_ROUTES } from './ledger.commands';

export const LEDGER = Symbol('factledger.ledger');
export const LEDGER_HANDLE = Symbol('factledger.handle');
export const RECALL = Symbol('factledger.recall');

export interface FactLedgerOptions {
  /** Overrides of the environment-derived configuration. */
  config?: Partial<LedgerConfig>;
  clock?: Clock;
  /** An already built ledger (tests, scenario runs); the module then does not open a database. */
  handle?: LedgerHandle;
  /** Context assembly; AssembleContextQuery needs it. */
  recall?: Recall;
}

@QueryHandler(AssembleContextQuery)
class AssembleContextHandler {
  constructor(@Inject(RECALL) private readonly recall: Recall | null) {}
  execute(query: AssembleContextQuery): Promise<RecallResult> {
    if (!this.recall) throw new Error('FactLedgerModule was configured without recall');
    return this.recall.assemble(query.tenant, query.input);
  }
}

function commandHandler(message: Type, run: (ledger: Ledger, c: never) => Promise<unknown>): Type {
  @CommandHandler(message)
  class LedgerCommandHandler {
    constructor(@Inject(LEDGER) private readonly ledger: Ledger) {}
    execute(command: never): Promise<unknown> {
      return run(this.ledger, command);
    }
  }
  Object.defineProperty(LedgerCommandHandler, 'name', { value: `${message.name}Handler` });
  return LedgerCommandHandler;
}

function queryHandler(message: Type, run: (ledger: Ledger, q: never) => Promise<unknown>): Type {
  @QueryHandler(message)
  class LedgerQueryHandler {
    constructor(@Inject(LEDGER) private readonly ledger: Ledger) {}
    execute(query: never): Promise<unknown> {
      return run(this.ledger, query);
    }
  }
  Object.defineProperty(LedgerQueryHandler, 'name', { value: `${message.name}Handler` });
  return LedgerQueryHandler;
}

@Injectable()
class LedgerLifecycle implements OnModuleDestroy {
  constructor(@Inject(LEDGER_HANDLE) private readonly handle: LedgerHandle & { owned?: boolean }) {}
  async onModuleDestroy(): Promise<void> {
    if (this.handle.owned) await this.handle.close();
  }
}

@Module({})
export class FactLedgerModule {
  static forRoot(options: FactLedgerOptions = {}): DynamicModule {
    const handleProvider: Provider = options.handle
      ? { provide: LEDGER_HANDLE, useValue: options.handle }
      : {
          provide: LEDGER_HANDLE,
          useFactory: async () => {
            const handle = await createLedger(loadConfig(process.env, options.config ?? {}), { clock: options.clock });
            return Object.assign(handle, { owned: true });
          },
        };
    const handlers = [
      ...COMMAND_ROUTES.map(([message, run]) => commandHandler(message, run as never)),
      ...QUERY_ROUTES.map(([message, run]) => queryHandler(message, run as never)),
    ];
    return {
      module: FactLedgerModule,
      global: true,
      imports: [CqrsModule.forRoot()],
      providers: [
        handleProvider,
        { provide: LEDGER, useFactory: (h: LedgerHandle) => h.ledger, inject: [LEDGER_HANDLE] },
        LedgerLifecycle,
        { provide: RECALL, useValue: options.recall ?? null },
        AssembleContextHandler,
        ...handlers,
      ],
      exports: [LEDGER, LEDGER_HANDLE, RECALL, CqrsModule],
    };
  }
}
