/**
 * The one place where errors become HTTP responses. Ledger errors carry a stable `code`; the
 * table below gives each its status. Anything unknown is a 500 with a generic message, logged
 * in full, so internals never leak into a response.
 */
import { STATUS_CODES } from 'node:http';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type FieldIssue, InvalidInputError, LedgerError, MemoryErasedError, SlotTakenError } from '@factledger/domain';
import { databaseFault } from '@factledger/store';
import { type Logger, SERVER_LOGGER } from '../logging';

export const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  invalid_input: 400,
  unknown_memory: 404,
  // Erased: it existed, and only that is left.
  memory_erased: 410,
  unknown_batch: 404,
  cardinality_conflict: 409,
  illegal_lifecycle: 409,
  // A restore into a slot another memory holds (the same key from the same start): `heldBy` names it.
  slot_taken: 409,
  version_conflict: 409,
  // A command id already used for another command: it replays only the command it first named.
  command_id_reused: 409,
  projection_lag: 503,
  unknown_trace: 404,
  unknown_answer: 404,
  unknown_message: 404,
  llm_not_configured: 501,
  not_supported_by_store: 501,
  llm_service_unreachable: 503,
  llm_timeout: 503,
  llm_service_error: 502,
  llm_bad_response: 502,
  // The embedding service behind recall: unreachable or slow → retry later; a wrong answer → bad gateway.
  embedding_service_unreachable: 503,
  embedding_timeout: 503,
  embedding_service_error: 502,
  embedding_bad_response: 502,
  embedding_dimension_mismatch: 502,
  // API keys: no usable key; a tenant the key does not cover (answered like anything that is not there); a scope the key lacks.
  unauthenticated: 401,
  hidden: 404,
  forbidden: 403,
  unknown_key: 404,
  // The database is unreachable, restarting, out of disk or connections, or a statement ran past its timeout: try again.
  database_unavailable: 503,
  database_timeout: 503,
  database_full: 503,
};

export interface ErrorBody {
  error: string;
  message: string;
  issues?: FieldIssue[];
  erased?: MemoryErasedError['erasure'];
  /** slot_taken: the memory that holds the slot a restore asked for. */
  heldBy?: string;
}

export interface HttpError {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
  /** Unexpected: log it with its stack. */
  unexpected?: boolean;
}

const snake = (status: number): string => (STATUS_CODES[status] ?? 'error').toLowerCase().replace(/[^a-z0-9]+/g, '_');

/** Errors from http-errors (body-parser: payload too large, unsupported charset…) say they are safe to show. */
function isExposedClientError(e: unknown): e is { status: number; message: string } {
  const x = e as { status?: unknown; expose?: unknown } | null;
  return typeof x?.status === 'number' && x.status >= 400 && x.status < 500 && x.expose === true;
}

export function toHttpError(thrown: unknown): HttpError {
  // A database fault that passes is a 503 with its reason, never a 500 (@factledger/store databaseFault).
  const exception = databaseFault(thrown) ?? thrown;
  if (exception instanceof LedgerError && exception.code in STATUS_BY_CODE) {
    const status = STATUS_BY_CODE[exception.code]!;
    // A tenant the key does not cover gets the same answer whatever it holds: nothing of it leaks.
    const body: ErrorBody = exception.code === 'hidden' ? { error: 'not_found', message: 'nothing here for this API key' } : { error: exception.code, message: exception.message };
    if (exception instanceof InvalidInputError) body.issues = exception.issues;
    if (exception instanceof MemoryErasedError) body.erased = exception.erasure;
    if (exception instanceof SlotTakenError) body.heldBy = exception.heldBy;
    const headers: Record<string, string> | undefined = status === 503 ? { 'Retry-After': '1' } : status === 401 ? { 'WWW-Authenticate': 'Bearer' } : undefined;
    return { status, body, headers };
  }
  if (exception instanceof HttpException && exception.getStatus() < 500) {
    const status = exception.getStatus();
    // Nest turns a body that is not valid JSON (and a malformed %-escape in the path) into a 400.
    if (status === 400) {
      const message = `malformed request: ${exception.message}`;
      return { status, body: { error: 'invalid_input', message, issues: [{ path: '', message: exception.message }] } };
    }
    return { status, body: { error: snake(status), message: exception.message } };
  }
  if (isExposedClientError(exception)) {
    return { status: exception.status, body: { error: snake(exception.status), message: exception.message } };
  }
  return { status: 500, body: { error: 'internal', message: 'internal error; it has been logged' }, unexpected: true };
}

@Catch()
export class LedgerExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(SERVER_LOGGER) private readonly logger: Logger,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const { httpAdapter } = this.adapterHost;
    const http = host.switchToHttp();
    const response = http.getResponse();
    const error = toHttpError(exception);
    if (error.unexpected) {
      const request = http.getRequest<{ method?: string; originalUrl?: string; url?: string }>();
      this.logger.error({ err: exception, method: request?.method, url: request?.originalUrl ?? request?.url }, 'unhandled error');
    } else if (error.body.error.startsWith('database_')) {
      this.logger.warn({ err: exception, reason: error.body.error }, 'database unavailable; answered 503');
    }
    if (httpAdapter.isHeadersSent(response)) {
      httpAdapter.end(response);
      return;
    }
    for (const [name, value] of Object.entries(error.headers ?? {})) httpAdapter.setHeader(response, name, value);
    httpAdapter.reply(response, error.body, error.status);
  }
}
