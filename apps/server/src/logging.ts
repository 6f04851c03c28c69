/**
 * Structured logs with pino: one JSON line per request, and pino behind Nest's own logger so
 * start-up and errors come out in the same format.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

/** Injection token of the server's pino logger. */
export const SERVER_LOGGER = Symbol('factledger.server.logger');

/**
 * Writes synchronously to stdout: Nest re-raises SIGTERM/SIGINT right after shutdown, which would
 * drop the last lines (the shutdown itself) from an asynchronous buffer.
 */
export function createLogger(level: string): Logger {
  return pino(
    { level, base: { service: 'factledger' }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination({ dest: 1, sync: true }),
  );
}

/** Nest's LoggerService on pino; Nest passes the context (e.g. "RoutesResolver") as the last string. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    // Nest calls error(message, stack?, context?); a lone second argument may be either.
    const lone = params.length === 1 && typeof params[0] === 'string' && !params[0].includes('\n');
    const [stack, context] = params.length >= 2 ? params : lone ? [undefined, params[0]] : [params[0], undefined];
    if (message instanceof Error) this.logger.error({ context, err: message }, message.message);
    else this.logger.error({ context, stack }, String(message));
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: 'info' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, params: unknown[]): void {
    const context = typeof params[params.length - 1] === 'string' ? params[params.length - 1] : undefined;
    if (typeof message === 'object' && message !== null) this.logger[level]({ context, ...message });
    else this.logger[level]({ context }, String(message));
  }
}

const TENANT_IN_URL = /^\/v1\/tenants\/([^/?#]+)/;

function tenantOf(url: string): string | undefined {
  const m = TENANT_IN_URL.exec(url);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1];
  }
}

/**
 * Express-style middleware writing one line per finished request. Installed before the body
 * parser, so a request rejected for malformed JSON is logged too.
 */
export function requestLog(logger: Logger) {
  return (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, next: () => void): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const url = req.originalUrl ?? req.url ?? '';
      const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10;
      const line = { method: req.method, url, status: res.statusCode, ms, tenant: tenantOf(url) };
      if (res.statusCode >= 500) logger.error(line, 'request');
      else logger.info(line, 'request');
    });
    next();
  };
}
