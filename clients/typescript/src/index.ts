/**
 * @factledger/client: the HTTP API from TypeScript, typed from the server's own contract
 * (clients/openapi.json → schema.ts, by openapi-typescript) and called through openapi-fetch.
 * Every route is there by its path, with its parameters, body and answers typed; `ok` turns an
 * answer into its data or a typed error.
 *
 *   const api = createFactledgerClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: process.env.FACTLEDGER_API_KEY });
 *   const written = await ok(api.POST('/v1/tenants/{tenant}/memories', { params: { path: { tenant: 'acme' } }, body: { subject: 'svc', relation: 'port', value: '8080' } }));
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths } from './schema';

/** The body of every error answer: a stable `error` code, a message, and for invalid input the fields at fault. */
export type ErrorBody = components['schemas']['Error'];

export type FactledgerClient = Client<paths>;

export interface FactledgerClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the server listens, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** An API key (`factledger keys create`), sent as `Authorization: Bearer <key>` on every call. */
  apiKey?: string;
}

/** A client for one server and one key; a key covers one tenant (or every tenant, an operator's). */
export function createFactledgerClient(options: FactledgerClientOptions): FactledgerClient {
  const { apiKey, headers, baseUrl, ...rest } = options;
  return createClient<paths>({
    ...rest,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}), ...(headers as Record<string, string> | undefined) },
  });
}

/** An answer of the API that is not a success: its status, its stable code, and the body as sent. */
export class FactledgerApiError extends Error {
  readonly status: number;
  /** The stable code (`invalid_input`, `unknown_memory`, `version_conflict`, `projection_lag`, …). */
  readonly code: string;
  /** For `invalid_input`: each field at fault. */
  readonly issues: { path: string; message: string }[];
  readonly body: ErrorBody | null;
  /** Seconds to wait before a retry, when the server said (503, 429). */
  readonly retryAfter: number | null;

  constructor(status: number, body: ErrorBody | null, retryAfter: number | null) {
    super(body?.message ?? `HTTP ${status}`);
    this.name = new.target.name;
    this.status = status;
    this.code = body?.error ?? `http_${status}`;
    this.issues = body?.issues ?? [];
    this.body = body;
    this.retryAfter = retryAfter;
  }
}

/** 400: nothing was changed; `issues` names each field. */
export class InvalidInputError extends FactledgerApiError {}
/** 401: no usable API key. */
export class UnauthenticatedError extends FactledgerApiError {}
/** 403: the key lacks the scope the route needs. */
export class ForbiddenError extends FactledgerApiError {}
/** 404: nothing with that id in this tenant, or a tenant the key does not cover. */
export class NotFoundError extends FactledgerApiError {}
/** 409: a cardinality conflict, an illegal lifecycle step or a concurrent change. */
export class ConflictError extends FactledgerApiError {}
/** 410: the memory was erased (`body.erased` says when and by which erasure). */
export class GoneError extends FactledgerApiError {}
/** 429: over the key's rate limit. */
export class RateLimitedError extends FactledgerApiError {}
/** 503: not ready (a read model behind `minPosition`, a dependency unreachable); retry after `retryAfter`. */
export class UnavailableError extends FactledgerApiError {}

const BY_STATUS: Record<number, new (status: number, body: ErrorBody | null, retryAfter: number | null) => FactledgerApiError> = {
  400: InvalidInputError,
  401: UnauthenticatedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  410: GoneError,
  429: RateLimitedError,
  503: UnavailableError,
};

/** The typed error for an answer that is not a success. */
export function apiError(response: Response, error: unknown): FactledgerApiError {
  const body = error !== null && typeof error === 'object' && typeof (error as ErrorBody).error === 'string' ? (error as ErrorBody) : null;
  const after = Number(response.headers.get('retry-after'));
  const Kind = BY_STATUS[response.status] ?? FactledgerApiError;
  return new Kind(response.status, body, Number.isFinite(after) && response.headers.has('retry-after') ? after : null);
}

/** A call's data, or its typed error thrown: `const fact = await ok(api.GET('/v1/tenants/{tenant}/facts', …))`. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw apiError(response, error);
  return data as T;
}
