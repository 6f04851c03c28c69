/** Builds the Nest application the same way for `npm start` and for the end-to-end tests. */
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule, type ServerOptions, serverLogger } from './app.module';
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
  serveInspector(app);
  return app;
}
