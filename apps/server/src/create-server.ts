/** Builds the Nest application the same way for `npm start` and for the end-to-end tests. */
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule, type ServerOptions, serverLogger } from './app.module';
import { requestSpelling, utf8Body } from './http/request-spelling';
import { serveInspector } from './inspector';
import { PinoNestLogger, requestLog } from './logging';
import { httpTelemetry, processTelemetry } from './telemetry';

export async function createServer(options: ServerOptions = {}): Promise<INestApplication> {
  const logger = serverLogger(options);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ ...options, logger }), {
    logger: new PinoNestLogger(logger),
    // Let a failed start-up (unreachable database, bad config) reach the caller instead of aborting the process.
    abortOnError: false,
  });
  // Registered before Nest adds its body parser at init, so rejected bodies are logged (and traced) too;
  // the request's span first, so that its log line can name the trace.
  app.use(httpTelemetry(processTelemetry()));
  app.use(requestLog(logger));
  // Before any route matches: one spelling of each path, and no text that is not UTF-8 (http/request-spelling.ts).
  app.use(requestSpelling);
  // Nest's types keep `verify` for its raw-body option, which is off here; the parsers take it as given.
  app.useBodyParser('json', { verify: utf8Body } as Record<string, unknown>);
  app.useBodyParser('urlencoded', { extended: true, verify: utf8Body } as Record<string, unknown>);
  serveInspector(app);
  return app;
}
