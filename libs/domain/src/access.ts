/**
 * Who may do what (R-trust), pure: API keys, their scopes and the decision for one request.
 *
 * - A key belongs to one tenant, or to every tenant (`*`: an operator's key), and carries scopes:
 *   `read` (every query, the context for a prompt, verification), `write` (every command that
 *   appends), `admin` (erasure, a batch's rollback, and what later needs more than writing). `admin` does not imply
 *   the others: a key gets what it is given.
 * - The secret is shown once, as `flk_<id>_<secret>`; only its SHA-256 is kept. The id part lets
 *   the key be found without comparing every hash; the secret part is 32 random bytes.
 * - A request decides one of: allowed; `unauthenticated` (no key, an unknown, revoked or expired
 *   one: 401); `hidden` (a tenant the key does not cover: 404, the same answer whether that tenant
 *   holds anything or not, so nothing about other tenants leaks); `forbidden` (the key's own
 *   tenant, a scope it lacks: 403).
 */
import { InvalidInputError, LedgerError } from './errors';

export const SCOPES = ['read', 'write', 'admin'] as const;
export type AccessScope = (typeof SCOPES)[number];

/** The tenant of an operator's key: it covers every tenant. */
export const ANY_TENANT = '*';

export interface ApiKey {
  keyId: string;
  /** One tenant, or `*`. */
  tenant: string;
  scopes: AccessScope[];
  name: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export type AccessDecision = { allowed: true; key: ApiKey } | { allowed: false; reason: 'unauthenticated' | 'hidden' | 'forbidden'; message: string };

const SECRET = /^flk_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

/** The id and secret parts of a presented key, or null when it is not shaped like one. */
export function splitSecret(presented: string): { keyId: string; secret: string } | null {
  const m = SECRET.exec(presented.trim());
  return m ? { keyId: m[1]!, secret: m[2]! } : null;
}

/** The text a key is shown as, from its id and its random part. */
export const joinSecret = (keyId: string, secret: string): string => `flk_${keyId}_${secret}`;

/** Whether a key is usable at `now`: not revoked, not expired. */
export function keyState(key: ApiKey, now: Date): 'active' | 'revoked' | 'expired' {
  if (key.revokedAt && key.revokedAt <= now) return 'revoked';
  if (key.expiresAt && key.expiresAt <= now) return 'expired';
  return 'active';
}

/**
 * The decision for a request to `tenant` (null for a route of no tenant, such as key management by
 * an operator) that needs `scope`, made with the key found for the presented secret (null: none).
 */
export function decideAccess(key: ApiKey | null, tenant: string | null, scope: AccessScope, now: Date): AccessDecision {
  if (!key) return { allowed: false, reason: 'unauthenticated', message: 'a valid API key is required: Authorization: Bearer <key>' };
  const state = keyState(key, now);
  if (state !== 'active') return { allowed: false, reason: 'unauthenticated', message: `this API key is ${state}` };
  if (key.tenant !== ANY_TENANT && key.tenant !== tenant) return { allowed: false, reason: 'hidden', message: 'nothing here' };
  if (!key.scopes.includes(scope)) return { allowed: false, reason: 'forbidden', message: `this API key lacks the '${scope}' scope` };
  return { allowed: true, key };
}

/** Scopes from their comma-separated names ("read,write"), each once, in SCOPES order; a typed error naming a wrong one. */
export function parseScopes(text: string): AccessScope[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const wrong = names.filter((n) => !(SCOPES as readonly string[]).includes(n));
  if (names.length === 0 || wrong.length) {
    throw new InvalidInputError([{ path: 'scopes', message: `must be some of ${SCOPES.join(', ')}, comma-separated${wrong.length ? `; not ${wrong.join(', ')}` : ''}` }]);
  }
  return SCOPES.filter((s) => names.includes(s));
}

/** A key the request presented is refused (the HTTP layer maps the reason to 401, 404 or 403). */
export class AccessDeniedError extends LedgerError {
  readonly code: 'unauthenticated' | 'hidden' | 'forbidden';
  constructor(reason: 'unauthenticated' | 'hidden' | 'forbidden', message: string) {
    super(message);
    this.code = reason;
  }
}

/** No key with this id. */
export class UnknownKeyError extends LedgerError {
  readonly code = 'unknown_key';
  constructor(readonly keyId: string) {
    super(`no API key ${keyId}`);
  }
}
