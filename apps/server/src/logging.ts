/**
 * Structured logs with pino: one JSON line per finished request, and pino behind Nest's own
 * logger so start-up and errors come out in the same format.
 *
 * The request line comes from pino-http rather than a hand-written middleware: it is the pino
 * project's own, well-kept library for exactly this, and it brings request ids, redaction and
 * response timing (including requests that end early) without code of our own to keep right.
 * What is ours is only the shape of the line: short serializers, the tenant, the level.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import { type DestinationStream, pino, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';

export type { Logger } from 'pino';

/** Injection token of the server's pino logger. */
export const SERVER_LOGGER = Symbol('factledger.server.logger');

/**
 * Writes synchronously to stdout: Nest re-raises SIGTERM/SIGINT right after shutdown, which would
 * drop the last lines (the shutdown itself) from an asynchronous buffer. `destination` is for
 * tests that read the lines back.
 */
export function createLogger(level: string, destination: DestinationStream = pino.destination({ dest: 1, sync: true })): Logger {
  return pino({ level, base: { service: 'factledger' }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
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

type Request = IncomingMessage & { originalUrl?: string };

const urlOf = (req: Request): string => req.originalUrl ?? req.url ?? '';

export const REQUEST_ID_HEADER = 'x-request-id';

/** An incoming id is kept when it is 1–128 printable ASCII characters; anything else is replaced. */
const SANE_REQUEST_ID = /^[\x20-\x7e]{1,128}$/;

/** The caller's `x-request-id` when it is sane, else a fresh UUID; echoed in the response either way. */
export function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const id = typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** error for a 5xx (or a response that failed), info for everything else. */
export function requestLevel(_req: IncomingMessage, res: ServerResponse, err?: Error): 'error' | 'info' {
  return err || res.statusCode >= 500 ? 'error' : 'info';
}

/**
 * Never logged, wherever a request's or response's headers end up in a line (the serializers
 * below leave headers out altogether; this holds even if someone logs them).
 */
const SECRET_HEADERS = ['authorization', 'cookie', 'x-api-key', 'set-cookie'];
export const REDACTED_PATHS = ['req.headers', 'res.headers', 'headers'].flatMap((at) => SECRET_HEADERS.map((h) => `${at}["${h}"]`));

/**
 * Express-style middleware (pino-http) writing one line per finished request on `logger`:
 * `reqId`, `req: { method, url, remoteAddress }`, `tenant` (from `/v1/tenants/{tenant}/…`),
 * `res: { statusCode }`, `ms`; level error for a 5xx. No headers, no bodies. Installed before the
 * body parser, so a request rejected for malformed JSON is logged too.
 */
export function requestLog(logger: Logger) {
  return pinoHttp<Request, ServerResponse>({
    logger,
    genReqId: requestIdOf,
    // The id as a top-level `reqId` (not inside `req`), on this line and on `req.log`.
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'reqId', responseTime: 'ms' },
    // Our serializers get the raw request and response: nothing of pino-http's header dumps.
    wrapSerializers: false,
    serializers: {
      req: (req: Request) => ({ method: req.method, url: urlOf(req), remoteAddress: req.socket?.remoteAddress }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    redact: { paths: REDACTED_PATHS },
    customLogLevel: requestLevel,
    customProps: (req) => {
      const tenant = tenantOf(urlOf(req));
      return tenant === undefined ? {} : { tenant };
    },
    customSuccessMessage: (req, res) => (res.writableEnded && !req.readableAborted ? 'request' : 'request aborted'),
    // A 5xx is a line like any other (the exception filter logs an unexpected error, with its stack);
    // pino-http's stand-in error ("failed with status code 500") is dropped, a real one is kept.
    customErrorMessage: (_req, res, err) => (res.writableEnded ? 'request' : `request failed: ${err.message}`),
    customErrorObject: (_req, res, err, val: Record<string, unknown>) => {
      const { err: _error, ...line } = val;
      return err.message === `failed with status code ${res.statusCode}` ? line : { ...line, err };
    },
  });
}
