import { type ApiKey, decideAccess, joinSecret, keyState, parseScopes, splitSecret } from './access';

const now = new Date('2026-12-01T12:00:00Z');
const key = (over: Partial<ApiKey> = {}): ApiKey => ({
  keyId: 'abcdefghijkl',
  tenant: 'acme',
  scopes: ['read'],
  name: null,
  createdAt: new Date('2026-01-01'),
  expiresAt: null,
  revokedAt: null,
  ...over,
});

describe('access decisions', () => {
  it('lets a key through to its own tenant with the scope it holds, and an operator key to every tenant', () => {
    expect(decideAccess(key(), 'acme', 'read', now)).toMatchObject({ allowed: true });
    expect(decideAccess(key({ tenant: '*', scopes: ['write'] }), 'anyone', 'write', now)).toMatchObject({ allowed: true });
  });

  it('says 401 without a usable key, 404 for another tenant before anything about scopes, 403 for a missing scope', () => {
    expect(decideAccess(null, 'acme', 'read', now)).toMatchObject({ allowed: false, reason: 'unauthenticated' });
    expect(decideAccess(key({ revokedAt: new Date('2026-11-01') }), 'acme', 'read', now)).toMatchObject({ reason: 'unauthenticated', message: 'this API key is revoked' });
    expect(decideAccess(key({ expiresAt: now }), 'acme', 'read', now)).toMatchObject({ reason: 'unauthenticated', message: 'this API key is expired' });
    expect(decideAccess(key(), 'beta', 'write', now)).toMatchObject({ reason: 'hidden' });
    expect(decideAccess(key(), null, 'read', now)).toMatchObject({ reason: 'hidden' });
    expect(decideAccess(key(), 'acme', 'write', now)).toMatchObject({ reason: 'forbidden', message: "this API key lacks the 'write' scope" });
    expect(decideAccess(key({ scopes: ['admin'] }), 'acme', 'read', now)).toMatchObject({ reason: 'forbidden' });
  });

  it('reads a key state at an instant: revoked or expired from their time on, active before', () => {
    expect(keyState(key({ expiresAt: new Date('2026-12-02') }), now)).toBe('active');
    expect(keyState(key({ revokedAt: new Date('2026-12-02') }), now)).toBe('active');
    expect(keyState(key({ revokedAt: now, expiresAt: now }), now)).toBe('revoked');
  });

  it('parses scopes once each in a fixed order, and refuses unknown or empty ones naming the field', () => {
    expect(parseScopes(' write, read,write ')).toEqual(['read', 'write']);
    expect(() => parseScopes('read,root')).toThrow(/scopes: must be some of read, write, admin, comma-separated; not root/);
    expect(() => parseScopes(' , ')).toThrow(/scopes/);
  });

  it('splits a presented key into its id and secret, and refuses anything else', () => {
    const secret = 'A'.repeat(43);
    expect(splitSecret(joinSecret('abcdefghijkl', secret))).toEqual({ keyId: 'abcdefghijkl', secret });
    for (const bad of ['', 'flk_abc_def', `flk_ABCDEFGHIJKL_${secret}`, `xlk_abcdefghijkl_${secret}`, `flk_abcdefghijkl_${secret}x`]) expect(splitSecret(bad)).toBeNull();
  });
});
