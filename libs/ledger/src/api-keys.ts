/**
 * API keys: made, listed, revoked and checked. A key's secret is 32 random bytes, shown once when
 * the key is made and kept only as its SHA-256 (a secret of that entropy needs no slow hash: there
 * is nothing to guess). Checking a presented key finds it by the id part of its text and compares
 * the hashes in constant time. Keys live in their own table, not in the log: they are the door's
 * configuration, and revoking one stamps it, never deleting it, so an actor id in the log always
 * names a key that can be listed.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  type AccessDecision,
  type AccessScope,
  ANY_TENANT,
  type ApiKey,
  type Clock,
  decideAccess,
  InvalidInputError,
  joinSecret,
  keyState,
  parseScopes,
  splitSecret,
  UnknownKeyError,
} from '@factledger/domain';
import type { ApiKeyStore, StoredApiKey } from '@factledger/store';
import { z } from 'zod';
import { parse } from './ledger.schemas';
import { isoTime, tenantSchema } from './ledger.schemas';

export const createKeySchema = z
  .object({
    tenant: z.union([z.literal(ANY_TENANT), tenantSchema]),
    scopes: z.union([z.string(), z.array(z.string())]).transform((v, ctx) => {
      try {
        return parseScopes(Array.isArray(v) ? v.join(',') : v);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error & { issues?: { message: string }[] }).issues?.[0]?.message ?? String(error) });
        return z.NEVER;
      }
    }),
    name: z.string().trim().min(1).max(200).optional(),
    expires: isoTime.optional(),
  })
  .strict();

/** A key as listed: everything but its secret and hash, with its state now. */
export interface KeyView extends Omit<ApiKey, 'createdAt' | 'expiresAt' | 'revokedAt'> {
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  state: 'active' | 'revoked' | 'expired';
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export class ApiKeys {
  constructor(
    private readonly store: ApiKeyStore,
    private readonly clock: Clock,
  ) {}

  /** Makes a key; the secret is in the result and nowhere else. */
  async create(input: unknown): Promise<{ key: KeyView; secret: string }> {
    const k = parse(createKeySchema, input);
    const now = this.clock.now();
    if (k.expires && k.expires <= now) throw new InvalidInputError([{ path: 'expires', message: 'must be in the future' }]);
    const keyId = randomBytes(9)
      .toString('base64url')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '0')
      .slice(0, 12);
    const secret = randomBytes(32).toString('base64url');
    const stored: StoredApiKey = { keyId, tenant: k.tenant, scopes: k.scopes, name: k.name ?? null, createdAt: now, expiresAt: k.expires ?? null, revokedAt: null, secretHash: sha256(secret) };
    await this.store.insert(stored);
    return { key: this.view(stored, now), secret: joinSecret(keyId, secret) };
  }

  async list(): Promise<KeyView[]> {
    const now = this.clock.now();
    return (await this.store.list()).map((k) => this.view(k, now));
  }

  async revoke(keyId: string): Promise<KeyView> {
    if (!(await this.store.revoke(keyId, this.clock.now()))) throw new UnknownKeyError(keyId);
    return this.view((await this.store.find(keyId))!, this.clock.now());
  }

  /** How many keys can be used now (the server refuses to require keys when there are none). */
  activeCount(): Promise<number> {
    return this.store.activeCount(this.clock.now());
  }

  /** The key a presented secret is, if any: unknown, malformed and wrong secrets all come back null. */
  async authenticate(presented: string | null | undefined): Promise<ApiKey | null> {
    const parts = presented ? splitSecret(presented) : null;
    if (!parts) return null;
    const key = await this.store.find(parts.keyId);
    if (!key) return null;
    const given = Buffer.from(sha256(parts.secret), 'hex');
    const kept = Buffer.from(key.secretHash, 'hex');
    return given.length === kept.length && timingSafeEqual(given, kept) ? key : null;
  }

  /** The decision for a request with `presented` (an `Authorization: Bearer` value's key) to `tenant`, needing `scope`. */
  async decide(presented: string | null | undefined, tenant: string | null, scope: AccessScope): Promise<AccessDecision> {
    return this.decideFor(await this.authenticate(presented), tenant, scope);
  }

  /** The same decision for a key already authenticated (null: none, or not a key), without looking it up again. */
  decideFor(key: ApiKey | null, tenant: string | null, scope: AccessScope): AccessDecision {
    return decideAccess(key, tenant, scope, this.clock.now());
  }

  private view(k: StoredApiKey, now: Date): KeyView {
    return {
      keyId: k.keyId,
      tenant: k.tenant,
      scopes: k.scopes,
      name: k.name,
      createdAt: k.createdAt.toISOString(),
      expiresAt: k.expiresAt?.toISOString() ?? null,
      revokedAt: k.revokedAt?.toISOString() ?? null,
      state: keyState(k, now),
    };
  }
}
