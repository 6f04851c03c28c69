/**
 * FactLedgerModule: what a host NestJS backend imports to get the ledger. Commands go through
 * its CommandBus, queries through its QueryBus; the Ledger itself is injectable by LEDGER.
 *
 *   @Module({ imports: [FactLedgerModule.forRoot({ config: { databaseUrl } })] })   // or { dataDir } for embedded PGlite
 */
import { type DynamicModule, Inject, Injectable, Module, type OnModuleDestroy, type Provider, type Type } from '@nestjs/common';
import { CommandHandler, CqrsModule, EventBus, type IEvent, ofType, QueryHandler, Saga } from '@nestjs/cqrs';
import { map, type Observable } from 'rxjs';
import { type Clock, systemClock } from '@factledger/domain';
import { OpenAiChatModel } from '@factledger/llm';
import { actingAs, AdmissionPolicies, LlmExtractor, LlmTriager, createLedger, type IngestResult, type LedgerConfig, type LedgerHandle, loadConfig, MessageIngestor } from '@factledger/ledger';
import { type RecallHandle, type RecallResult, recallOn } from '@factledger/recall';
import { SPAN, traced } from '@factledger/store';
import { AssembleContextQuery, COMMAND_ROUTES, GetMessageQuery, GetTraceQuery, IngestMessageCommand, LedgerWrittenEvent, QUERY_ROUTES, RunReReviewCommand } from './ledger.commands';

export const LEDGER = Symbol('factledger.ledger');
export const LEDGER_HANDLE = Symbol('factledger.handle');
export const RECALL = Symbol('factledger.recall');
export const INGESTOR = Symbol('factledger.ingestor');

export interface FactLedgerOptions {
  /**
   * Overrides of the environment-derived configuration: `databaseUrl` for PostgreSQL, or `dataDir`,
   * the embedded PGlite data folder (default FACTLEDGER_DATA_DIR, else `.data/factledger` under the
   * working directory; `memory://` for none), which one process holds at a time.
   */
  config?: Partial<LedgerConfig>;
  clock?: Clock;
  /** An already built ledger (tests, scenario runs); the module then does not open a database. */
  handle?: LedgerHandle;
  /**
   * Context assembly for AssembleContextQuery and GetTraceQuery. Built from the configuration
   * (and its background indexer started) when the module opens the database itself.
   */
  recall?: RecallHandle;
  /** The message write path; built from the configuration (admission policy file, recall's embedder) when absent. */
  ingestor?: MessageIngestor;
}

function recallOf(handle: RecallHandle | null): RecallHandle {
  if (!handle) throw new Error('FactLedgerModule was configured without recall');
  return handle;
}

/** A command's or a query's work inside a SPAN.command span named after its message class. */
function inSpan<T>(message: object, work: () => Promise<T>): Promise<T> {
  return traced(`${SPAN.command} ${message.constructor.name}`, { 'factledger.tenant': String((message as { tenant?: unknown }).tenant ?? '') }, work);
}

@QueryHandler(AssembleContextQuery)
class AssembleContextHandler {
  constructor(@Inject(RECALL) private readonly recall: RecallHandle | null) {}
  execute(query: AssembleContextQuery): Promise<RecallResult> {
    return inSpan(query, () => recallOf(this.recall).recall.assemble(query.tenant, query.input));
  }
}

@QueryHandler(GetTraceQuery)
class GetTraceHandler {
  constructor(@Inject(RECALL) private readonly recall: RecallHandle | null) {}
  execute(query: GetTraceQuery): Promise<Record<string, unknown>> {
    return inSpan(query, () => recallOf(this.recall).recall.trace(query.tenant, String((query.input as { id?: unknown })?.id ?? '')));
  }
}

@CommandHandler(IngestMessageCommand)
class IngestMessageHandler {
  constructor(
    @Inject(INGESTOR) private readonly ingestor: MessageIngestor,
    private readonly events: EventBus,
  ) {}
  async execute(command: IngestMessageCommand): Promise<IngestResult> {
    const result = await inSpan(command, () => actingAs(command.actor, () => this.ingestor.ingest(command.tenant, command.input)));
    if (!result.replayed) this.events.publish(new LedgerWrittenEvent(command.tenant, result.position));
    return result;
  }
}

@QueryHandler(GetMessageQuery)
class GetMessageHandler {
  constructor(@Inject(INGESTOR) private readonly ingestor: MessageIngestor) {}
  execute(query: GetMessageQuery): Promise<IngestResult> {
    return inSpan(query, () => this.ingestor.message(query.tenant, String((query.input as { messageId?: unknown })?.messageId ?? '')));
  }
}

function commandHandler(message: Type, run: (handle: LedgerHandle, c: never) => Promise<unknown>): Type {
  @CommandHandler(message)
  class LedgerCommandHandler {
    constructor(
      @Inject(LEDGER_HANDLE) private readonly handle: LedgerHandle,
      private readonly events: EventBus,
    ) {}
    async execute(command: never): Promise<unknown> {
      const result = await inSpan(command, () => actingAs((command as { actor?: string }).actor, () => run(this.handle, command)));
      const position = (result as { position?: unknown } | null)?.position;
      if (typeof position === 'number' && position > 0) this.events.publish(new LedgerWrittenEvent((command as { tenant: string }).tenant, position));
      return result;
    }
  }
  Object.defineProperty(LedgerCommandHandler, 'name', { value: `${message.name}Handler` });
  return LedgerCommandHandler;
}

function queryHandler(message: Type, run: (handle: LedgerHandle, q: never) => Promise<unknown>): Type {
  @QueryHandler(message)
  class LedgerQueryHandler {
    constructor(@Inject(LEDGER_HANDLE) private readonly handle: LedgerHandle) {}
    execute(query: never): Promise<unknown> {
      return inSpan(query, () => run(this.handle, query));
    }
  }
  Object.defineProperty(LedgerQueryHandler, 'name', { value: `${message.name}Handler` });
  return LedgerQueryHandler;
}

/**
 * The re-review saga in @nestjs/cqrs terms, for a host that hands the module its own ledger and
 * runs no workers on it: every write seen on the bus wakes the durable saga, which reads the
 * stored log from its own checkpoint (so a missed or doubled wake-up changes nothing).
 *
 * Where the bus would only repeat or contradict the workers, the wake-up does nothing:
 * - this process runs the workers (`startWorkers`; the default when the module opens the
 *   database): the saga already follows the log, and this process's writes wake it;
 * - the module opened the database with FACTLEDGER_WORKERS=external: the saga runs in
 *   `factledger worker`, never here.
 */
@Injectable()
class ReReviewSagas {
  @Saga()
  writes = (events$: Observable<IEvent>): Observable<RunReReviewCommand> =>
    events$.pipe(
      ofType(LedgerWrittenEvent),
      map(() => new RunReReviewCommand()),
    );
}

@CommandHandler(RunReReviewCommand)
class RunReReviewHandler {
  constructor(@Inject(LEDGER_HANDLE) private readonly handle: LedgerHandle & { owned?: boolean }) {}
  async execute(): Promise<number> {
    if (this.handle.owned || this.handle.workersRunning) return 0;
    return this.handle.saga.catchUp();
  }
}

@Injectable()
class LedgerLifecycle implements OnModuleDestroy {
  constructor(@Inject(LEDGER_HANDLE) private readonly handle: LedgerHandle & { owned?: boolean; ownedRecall?: RecallHandle }) {}
  async onModuleDestroy(): Promise<void> {
    await this.handle.ownedRecall?.stop();
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
            const config = loadConfig(process.env, options.config ?? {});
            const handle = await createLedger(config, { clock: options.clock });
            const ownedRecall = options.recall ? undefined : recallOn(handle.database, handle.runner, options.clock ?? systemClock, config, undefined, handle.replicas);
            // With external workers (`factledger worker`) this process runs none of the log's readers.
            if (config.workers === 'internal') {
              ownedRecall?.start((error) => console.error('factledger recall indexer:', error));
              handle.startWorkers(config.indexIntervalMs, (error) => console.error('factledger workers:', error));
            }
            return Object.assign(handle, { owned: true, ownedRecall });
          },
        };
    const handlers = [...COMMAND_ROUTES.map(([message, run]) => commandHandler(message, run as never)), ...QUERY_ROUTES.map(([message, run]) => queryHandler(message, run as never))];
    return {
      module: FactLedgerModule,
      global: true,
      imports: [CqrsModule.forRoot()],
      providers: [
        handleProvider,
        { provide: LEDGER, useFactory: (h: LedgerHandle) => h.ledger, inject: [LEDGER_HANDLE] },
        LedgerLifecycle,
        {
          provide: RECALL,
          useFactory: (h: LedgerHandle & { ownedRecall?: RecallHandle }) => options.recall ?? h.ownedRecall ?? null,
          inject: [LEDGER_HANDLE],
        },
        {
          provide: INGESTOR,
          useFactory: (h: LedgerHandle, recall: RecallHandle | null) => {
            if (options.ingestor) return options.ingestor;
            const config = loadConfig(process.env, options.config ?? {});
            const chatModel = () => new OpenAiChatModel({ baseUrl: config.llmUrl!, model: config.llmModel!, apiKey: config.llmApiKey });
            return new MessageIngestor({
              ledger: h.ledger,
              store: h.store,
              clock: options.clock ?? systemClock,
              policies: AdmissionPolicies.fromFile(config.admissionPolicy),
              embedder: recall?.embedder,
              embedderLanguages: config.embeddings === 'openai' ? 'all' : ['en'],
              triager: config.triage === 'llm' ? new LlmTriager(chatModel()) : undefined,
              extractor: config.extraction === 'llm' ? new LlmExtractor(chatModel()) : undefined,
              resolution: config.resolution === 'rules',
              // What a user asks to forget in a chat is erased as POST /erasures would (docs/security.md).
              erasures: h.erasures,
            });
          },
          inject: [LEDGER_HANDLE, RECALL],
        },
        AssembleContextHandler,
        GetTraceHandler,
        IngestMessageHandler,
        GetMessageHandler,
        ReReviewSagas,
        RunReReviewHandler,
        ...handlers,
      ],
      exports: [LEDGER, LEDGER_HANDLE, RECALL, INGESTOR, CqrsModule],
    };
  }
}
