/** Every view is a URL under /inspector, so that a link can be pasted into a ticket. */
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/inspector';

export type Route =
  | { view: 'home' }
  | { view: 'memories'; tenant: string }
  | { view: 'memory'; tenant: string; memoryId: string }
  | { view: 'fact'; tenant: string }
  | { view: 'recall'; tenant: string }
  | { view: 'answers'; tenant: string }
  | { view: 'message'; tenant: string; messageId: string }
  | { view: 'batch'; tenant: string; batch: string }
  | { view: 'trace'; tenant: string; traceId: string }
  | { view: 'audit'; tenant: string }
  | { view: 'diff'; tenant: string }
  | { view: 'unknown' };

export function parseRoute(pathname: string): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const parts = rest.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { view: 'home' };
  if (parts[0] !== 'tenants' || !parts[1]) return { view: 'unknown' };
  const tenant = parts[1];
  const [section, id, more] = parts.slice(2);
  if (section === 'memories' && !id) return { view: 'memories', tenant };
  if (section === 'memories' && id && !more) return { view: 'memory', tenant, memoryId: id };
  if (section === 'facts' && !id) return { view: 'fact', tenant };
  if (section === 'recall' && !id) return { view: 'recall', tenant };
  if (section === 'answers' && !id) return { view: 'answers', tenant };
  if (section === 'messages' && id && !more) return { view: 'message', tenant, messageId: id };
  if (section === 'batches' && id && !more) return { view: 'batch', tenant, batch: id };
  if (section === 'traces' && id && !more) return { view: 'trace', tenant, traceId: id };
  if (section === 'audit' && !id) return { view: 'audit', tenant };
  if (section === 'audit' && id === 'diff') return { view: 'diff', tenant };
  return { view: 'unknown' };
}

export const href = (path: string): string => `${BASE}${path}`;
export const tenantHref = (tenant: string, path: string): string => href(`/tenants/${encodeURIComponent(tenant)}${path}`);

/** A key's history page: subject, relation and (when not empty) scope. */
export function factHref(tenant: string, key: { subject: string | null; relation: string | null; scope?: Record<string, string> }, asOf: { validAt?: string; knownAt?: string } = {}): string {
  const q = new URLSearchParams({ subject: key.subject ?? '', relation: key.relation ?? '' });
  if (key.scope && Object.keys(key.scope).length) q.set('scope', JSON.stringify(key.scope));
  for (const [k, v] of Object.entries(asOf)) if (v) q.set(k, v);
  return tenantHref(tenant, `/facts?${q.toString()}`);
}

export function navigate(to: string): void {
  history.pushState(null, '', to);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** The current location, updated on navigation (links and the back button). */
export function useLocation(): { pathname: string; search: URLSearchParams } {
  const read = () => ({ pathname: location.pathname, search: new URLSearchParams(location.search) });
  const [at, setAt] = useState(read);
  useEffect(() => {
    const on = () => setAt(read());
    addEventListener('popstate', on);
    return () => removeEventListener('popstate', on);
  }, []);
  return at;
}

/** A link that navigates in place (a plain link still works: the server serves every /inspector path). */
export function onLink(event: MouseEvent): void {
  const a = (event.target as HTMLElement).closest('a');
  if (!a || a.origin !== location.origin || !a.pathname.startsWith(BASE) || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  event.preventDefault();
  navigate(a.pathname + a.search);
}
