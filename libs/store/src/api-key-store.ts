/**
 * The API keys table (migrations/017): the adapter behind the ledger's key management. It stores
 * and finds keys; making secrets, hashing and deciding access live in the ledger and the domain.
 */
import type { AccessScope, ApiKey } from '@factledger/domain';
import { type Kysely, type Selectable, sql } from 'kysely';
import { type ApiKeysTable, type Executor, slice, type StoreTables, timestamptz } from './schema';

export interface StoredApiKey extends ApiKey {
  /** SHA-256 of the secret, hex. */
  secretHash: string;
}

const fromRow = (r: Selectable<ApiKeysTable>): StoredApiKey => ({
  keyId: r.key_id,
  tenant: r.tenant,
  scopes: r.scopes as AccessScope[],
  name: r.name,
  secretHash: r.secret_hash,
  createdAt: new Date(r.created_at),
  expiresAt: r.expires_at === null ? null : new Date(r.expires_at),
  revokedAt: r.revoked_at === null ? null : new Date(r.revoked_at),
});

export class ApiKeyStore {
  private readonly db: Kysely<StoreTables>;

  constructor(db: Executor) {
    this.db = slice(db);
  }

  async insert(key: StoredApiKey): Promise<void> {
    await this.db
      .insertInto('fl_api_keys')
      .values({
        key_id: key.keyId,
        tenant: key.tenant,
        scopes: key.scopes,
        name: key.name,
        secret_hash: key.secretHash,
        created_at: key.createdAt.toISOString(),
        expires_at: key.expiresAt?.toISOString() ?? null,
        revoked_at: null,
      })
      .execute();
  }

  async find(keyId: string): Promise<StoredApiKey | null> {
    const row = await this.db.selectFrom('fl_api_keys').selectAll().where('key_id', '=', keyId).executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  async list(): Promise<StoredApiKey[]> {
    return (await this.db.selectFrom('fl_api_keys').selectAll().orderBy('created_at').orderBy('key_id').execute()).map(fromRow);
  }

  /** Stamps the key revoked (once: a second revoke keeps the first time); false when there is no such key. */
  async revoke(keyId: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .updateTable('fl_api_keys')
      .set({ revoked_at: sql<Date>`coalesce(revoked_at, ${timestamptz(at)})` })
      .where('key_id', '=', keyId)
      .returning('key_id')
      .execute();
    return rows.length > 0;
  }

  /** How many keys can be used at `now`. */
  async activeCount(now: Date): Promise<number> {
    const at = timestamptz(now);
    const row = await this.db
      .selectFrom('fl_api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) => eb.and([eb.or([eb('revoked_at', 'is', null), eb('revoked_at', '>', at)]), eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)])]))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
