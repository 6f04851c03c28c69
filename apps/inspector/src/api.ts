/**
 * The inspector's only road to the ledger: the public HTTP API, with the API key pasted at
 * sign-in (kept for this browser session only, in sessionStorage).
 */
const KEY = 'factledger.inspector.key';

export const session = {
  key: (): string | null => sessionStorage.getItem(KEY),
  signIn: (key: string): void => sessionStorage.setItem(KEY, key),
  signOut: (): void => sessionStorage.removeItem(KEY),
};

/** A reply that was not 2xx, with the API's own error code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function api<T>(path: string, init: { method?: 'GET' | 'POST'; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const key = session.key();
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body), signal: init.signal });
  const text = await res.text();
  const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  if (!res.ok) throw new ApiError(res.status, String(body?.error ?? res.status), String(body?.message ?? res.statusText));
  return body as T;
}

/** `/v1/tenants/{tenant}/…` with the query string given (undefined and empty values left out). */
export function tenantPath(tenant: string, path: string, query: Record<string, string | number | undefined> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, String(v));
  const qs = q.toString();
  return `/v1/tenants/${encodeURIComponent(tenant)}/${path}${qs ? `?${qs}` : ''}`;
}

/** What to tell the reader when a read failed. */
export function explain(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return 'The server did not accept this API key. Sign in again with a valid key.';
    if (error.status === 404 && error.code === 'not_found') return 'Nothing here for this API key: it does not cover this tenant, or there is no such thing.';
    return `${error.message} (${error.code})`;
  }
  return error instanceof Error ? error.message : String(error);
}
