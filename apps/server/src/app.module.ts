/**
 * The HTTP service: FactLedgerModule (the ledger behind CommandBus/QueryBus), the controllers,
 * and the one exception filter that maps ledger errors to status codes.
 */
import { type DynamicModule, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { loadConfig } from '@factledger/ledger';
import { FactLedgerModule, type FactLedgerOptions } from '@factledger/nest';
import { apiControllers } from './api-controllers';
import { FallbackController } from './fallback.controller';
import { McpController } from './mcp.controller';
import { OPENAPI_DOCUMENT } from './openapi.controller';
import { buildOpenApiDocument } from './openapi.document';
import { AccessGate, AccessGuard, ActorInterceptor, KeyThrottlerGuard, SERVER_CONFIG, WriterReplyInterceptor } from './http/access';
import { LedgerExceptionFilter } from './http/ledger-exception.filter';
import { createLogger, type Logger, SERVER_LOGGER } from './logging';

export interface ServerOptions extends FactLedgerOptions {
  /** The server's pino logger; by default one at the configured LOG_LEVEL. */
  logger?: Logger;
}

/** The logger the options ask for: the given one, or one at LOG_LEVEL (or config.logLevel). */
export function serverLogger(options: ServerOptions): Logger {
  return options.logger ?? createLogger(loadConfig(process.env, options.config ?? {}).logLevel);
}

@Injectable()
class ShutdownLog implements OnApplicationShutdown {
  constructor(@Inject(SERVER_LOGGER) private readonly logger: Logger) {}
  onApplicationShutdown(signal?: string): void {
    this.logger.info({ signal }, 'factledger stopped; the store is closed');
  }
}

@Module({})
export class AppModule {
  static forRoot(options: ServerOptions = {}): DynamicModule {
    const { logger, ...ledgerOptions } = options;
    const config = loadConfig(process.env, options.config ?? {});
    const limited = config.rateLimit > 0;
    return {
      module: AppModule,
      imports: [FactLedgerModule.forRoot(ledgerOptions), ...(limited ? [ThrottlerModule.forRoot({ throttlers: [{ ttl: 60_000, limit: config.rateLimit }] })] : [])],
      // The fallback last: it takes whatever no route above matched.
      controllers: [...apiControllers, McpController, FallbackController],
      providers: [
        { provide: SERVER_LOGGER, useFactory: () => logger ?? serverLogger(options) },
        { provide: APP_FILTER, useClass: LedgerExceptionFilter },
        { provide: SERVER_CONFIG, useValue: config },
        { provide: OPENAPI_DOCUMENT, useValue: () => buildOpenApiDocument(apiControllers) },
        AccessGate,
        // Guards run in this order: the rate limit counts every request, refused ones too (an
        // unknown key by its client's address), before the door decides.
        ...(limited ? [{ provide: APP_GUARD, useClass: KeyThrottlerGuard }] : []),
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_INTERCEPTOR, useClass: ActorInterceptor },
        { provide: APP_INTERCEPTOR, useClass: WriterReplyInterceptor },
        ShutdownLog,
      ],
    };
  }
}
