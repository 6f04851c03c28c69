/**
 * The command line against a running server (`--url`, `--key`, or FACTLEDGER_URL and
 * FACTLEDGER_KEY) instead of the data folder the server holds: each command that has an HTTP route
 * sends it there, and prints what the local command prints (the routes answer with the same
 * results the command and query handlers return). An error answer becomes a LedgerError with the
 * server's stable code and message, printed as a local one is.
 */
import { LedgerError } from '@factledger/domain';

export interface RemoteServer {
  /** The server's base URL, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** An API key (`factledger keys create`), sent as `Authorization: Bearer <key>`. */
  key?: string;
}

/** One HTTP call: the path under `/v1/tenants/{tenant}`, its query parameters (undefined ones left out) and JSON body. */
export interface RemoteCall {
  method: 'GET' | 'POST';
  tenant: string;
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
}

/** An error answer of the server: its stable code (`unknown_memory`, `invalid_input`, …) and message. */
export class RemoteCallError extends LedgerError {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** `--url` given to a command that has no HTTP route: it would otherwise work on a database silently. */
export class NoHttpRouteError extends LedgerError {
  readonly code = 'no_http_route';
  constructor() {
    super('this command has no HTTP route: run it without --url, where its database is (the commands with one: history, as-of, context, trace, answers, verify, ingest, message, erase)');
  }
}

/** The server to call, from the options or the environment; undefined to work on the local data folder. */
export function remoteServer(options: { url?: string; key?: string }, env: NodeJS.ProcessEnv = process.env): RemoteServer | undefined {
  const url = options.url ?? (env.FACTLEDGER_URL || undefined);
  if (!url) return undefined;
  const key = options.key ?? (env.FACTLEDGER_KEY || undefined);
  return { url: url.replace(/\/+$/, ''), ...(key ? { key } : {}) };
}

export async function callServer<T>(server: RemoteServer, call: RemoteCall): Promise<T> {
  const query = new URLSearchParams(Object.entries(call.query ?? {}).filter((e): e is [string, string] => e[1] !== undefined));
  const url = `${server.url}/v1/tenants/${encodeURIComponent(call.tenant)}/${call.path}${query.size ? `?${query}` : ''}`;
  const headers: Record<string, string> = { accept: 'application/json', ...(server.key ? { authorization: `Bearer ${server.key}` } : {}) };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, { method: call.method, headers, ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new RemoteCallError('server_unreachable', `cannot reach the server at ${server.url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`, 0);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    throw new RemoteCallError(`http_${response.status}`, `the server at ${server.url} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`, response.status);
  }
  if (!response.ok) {
    const error = (body ?? {}) as { error?: unknown; message?: unknown };
    throw new RemoteCallError(
      typeof error.error === 'string' ? error.error : `http_${response.status}`,
      typeof error.message === 'string' ? error.message : `HTTP ${response.status}`,
      response.status,
    );
  }
  return body as T;
}
