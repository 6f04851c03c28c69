/** Sign-in: an API key (kept for this browser session), then the page asked for. */
import { useState } from 'preact/hooks';
import { api, ApiError, session, tenantPath } from '../api';
import { Problem } from '../parts';
import { navigate, tenantHref } from '../router';

export function SignIn({ tenant, then }: { tenant: string | null; then: string | null }) {
  const [key, setKey] = useState('');
  const [name, setName] = useState(tenant ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    const t = name.trim();
    if (!t) return setError('Name the tenant to open.');
    setBusy(true);
    setError(null);
    session.signIn(key.trim());
    try {
      await api(tenantPath(t, 'memories', { limit: 1 }));
    } catch (err) {
      // A tenant this key does not cover is said on the page itself; only a refused key stops here.
      if (err instanceof ApiError && err.status === 401) {
        session.signOut();
        setBusy(false);
        return setError('The server did not accept this API key.');
      }
    }
    setBusy(false);
    navigate(then ?? tenantHref(t, '/memories'));
  };

  return (
    <main class="sign-in">
      <h1>factledger inspector</h1>
      <p>
        Paste an API key made with <code>factledger keys create</code>. It is kept for this browser session only.
      </p>
      <form onSubmit={submit}>
        {tenant === null && (
          <label>
            Tenant
            <input name="tenant" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} autoComplete="off" required />
          </label>
        )}
        <label>
          API key
          <input name="key" type="password" value={key} onInput={(e) => setKey((e.target as HTMLInputElement).value)} autoComplete="off" autoFocus />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <Problem message={error} />
        <p class="muted">On a server on loopback with auth off, leave the key empty.</p>
      </form>
    </main>
  );
}
