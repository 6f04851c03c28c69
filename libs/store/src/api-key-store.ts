/**
 * The API keys table (migrations/017): the adapter behind the ledger's key management. It stores
 * and finds keys; making secrets, hashing and deciding access live in the ledger and the domain.
 */
import type { AccessScope, ApiKey } from '@factledger/domain';
import { type Kysely, sql } from 'kysely';

export interface StoredApiKey extends ApiKey {
  /** SHA-256 of the secret, hex. */
  secretHash: string;
}

interface KeyRow {
  key_id: string;
  tenant: string;
  scopes: string[];
  name: string | null;
  secret_hash: string;
  created_at: Date | string;
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
}

const date = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));
const fromRow = (r: KeyRow): StoredApiKey => ({
  keyId: r.key_id,
  tenant: r.tenant,
  scopes: r.scopes as AccessScope[],
  name: r.name,
  secretHash: r.secret_hash,
  createdAt: new Date(r.created_at),
  expiresAt: date(r.expires_at),
  revokedAt: date(r.revoked_at),
});

export class ApiKeyStore {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  constructor(private readonly db: Kysely<any>) {}

  async insert(key: StoredApiKey): Promise<void> {
    await sql`
      INSERT INTO fl_api_keys (key_id, tenant, scopes, name, secret_hash, created_at, expires_at, revoked_at)
      VALUES (${key.keyId}, ${key.tenant}, ${key.scopes}::text[], ${key.name}, ${key.secretHash}, ${key.createdAt.toISOString()}::timestamptz,
        ${key.expiresAt?.toISOString() ?? null}::timestamptz, NULL)`.execute(this.db);
  }

  async find(keyId: string): Promise<StoredApiKey | null> {
    const rows = await sql<KeyRow>`SELECT * FROM fl_api_keys WHERE key_id = ${keyId}`.execute(this.db);
    return rows.rows[0] ? fromRow(rows.rows[0]) : null;
  }

  async list(): Promise<StoredApiKey[]> {
    return (await sql<KeyRow>`SELECT * FROM fl_api_keys ORDER BY created_at, key_id`.execute(this.db)).rows.map(fromRow);
  }

  /** Stamps the key revoked (once: a second revoke keeps the first time); false when there is no such key. */
  async revoke(keyId: string, at: Date): Promise<boolean> {
    const rows = await sql`UPDATE fl_api_keys SET revoked_at = coalesce(revoked_at, ${at.toISOString()}::timestamptz) WHERE key_id = ${keyId} RETURNING key_id`.execute(this.db);
    return rows.rows.length > 0;
  }

  /** How many keys can be used at `now`. */
  async activeCount(now: Date): Promise<number> {
    const iso = now.toISOString();
    const rows = await sql<{ n: string }>`
      SELECT count(*) AS n FROM fl_api_keys
      WHERE (revoked_at IS NULL OR revoked_at > ${iso}::timestamptz) AND (expires_at IS NULL OR expires_at > ${iso}::timestamptz)`.execute(this.db);
    return Number(rows.rows[0]!.n);
  }
}
