import { createTestDatabase, type TestDatabase, testBackends, HashingEmbedder } from '@factledger/testing';
import { sql } from 'kysely';
import { CachedEmbedder } from './cached-embedder';
import type { Embedder, Embedding } from './embedder.port';
import { textHash } from './embedding-cache.port';
import { fromVectorBinary, PostgresEmbeddingCache, toVectorBinary, toVectorText } from './postgres-embedding-cache';

class RecordingEmbedder implements Embedder {
  readonly texts: string[] = [];
  private readonly inner: HashingEmbedder;
  constructor(
    readonly model: string,
    readonly dimensions: number,
  ) {
    this.inner = new HashingEmbedder(dimensions);
  }
  async embed(texts: string[]): Promise<Embedding[]> {
    this.texts.push(...texts);
    return this.inner.embed(texts);
  }
}

describe.each(testBackends())('PostgresEmbeddingCache on %s', (backend) => {
  let database: TestDatabase;
  let store: PostgresEmbeddingCache;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    store = new PostgresEmbeddingCache(database.db);
  });
  afterAll(() => database.close());

  it('embeds each distinct text once per model, across calls, embedders and restarts of the wrapper', async () => {
    const inner = new RecordingEmbedder('pg-model-a', 32);
    const first = await new CachedEmbedder(inner, store).embed(['alpha', 'beta', 'alpha']);
    const again = await new CachedEmbedder(inner, store).embed(['beta', 'gamma', 'alpha']);
    expect(inner.texts).toEqual(['alpha', 'beta', 'gamma']);
    expect(Array.from(again[2])).toEqual(Array.from(first[0]));
    expect(Array.from(again[0])).toEqual(Array.from(first[1]));
    const other = new RecordingEmbedder('pg-model-b', 32);
    await new CachedEmbedder(other, store).embed(['alpha']);
    expect(other.texts).toEqual(['alpha']);
  });

  it('round-trips float32 vectors exactly', async () => {
    const embedding = Float32Array.from([Math.PI, -1e-30, 3.4e38, 0, -0.1, 1 / 3, 123456.789, Number.EPSILON]);
    await store.put('pg-exact', [{ textHash: textHash('exact'), embedding }]);
    const found = await store.get('pg-exact', 8, [textHash('exact'), textHash('absent')]);
    expect([...found.keys()]).toEqual([textHash('exact')]);
    expect(Array.from(found.get(textHash('exact'))!)).toEqual(Array.from(embedding));
  });

  it("speaks pgvector's binary form both ways: a Buffer parameter is read as the vector, vector_send is read back exactly", async () => {
    const embedding = Float32Array.from([Math.PI, -1e-30, 3.4e38, 0, -0.1, 1 / 3]);
    for (const db of [database.db, database.search]) {
      const row = await sql<{ same: boolean; sent: Buffer; dims: number }>`
        SELECT ${toVectorBinary(embedding)}::vector = ${toVectorText(embedding)}::vector AS same,
          vector_send(${toVectorText(embedding)}::vector) AS sent, vector_dims(${toVectorBinary(embedding)}::vector) AS dims`.execute(db);
      expect(row.rows[0]!.same).toBe(true);
      expect(row.rows[0]!.dims).toBe(6);
      expect(fromVectorBinary(row.rows[0]!.sent)).toEqual(embedding);
    }
  });

  it('stores pgvector vectors keyed by (model, sha256), replacing an entry only when its length changed', async () => {
    const hash = textHash('resized');
    await store.put('pg-resize', [{ textHash: hash, embedding: Float32Array.from([1, 2]) }]);
    await store.put('pg-resize', [{ textHash: hash, embedding: Float32Array.from([9, 9]) }]); // same length: kept
    expect((await store.get('pg-resize', 3, [hash])).size).toBe(0);
    expect(Array.from((await store.get('pg-resize', 2, [hash])).get(hash)!)).toEqual([1, 2]);
    await store.put('pg-resize', [{ textHash: hash, embedding: Float32Array.from([1, 2, 3]) }]);
    expect(Array.from((await store.get('pg-resize', 3, [hash])).get(hash)!)).toEqual([1, 2, 3]);
    const row = await sql<{ type: string; dims: number }>`
      SELECT pg_typeof(embedding)::text AS type, vector_dims(embedding) AS dims
      FROM fl_embedding_cache WHERE model = 'pg-resize'`.execute(database.db);
    expect(row.rows).toEqual([{ type: 'vector', dims: 3 }]);
  });

  it('writes large batches and duplicate keys in one put', async () => {
    const inner = new RecordingEmbedder('pg-bulk', 16);
    const texts = Array.from({ length: 1_200 }, (_, i) => `bulk text ${i}`);
    const vectors = await new CachedEmbedder(inner, store).embed(texts);
    await store.put('pg-bulk', [
      { textHash: textHash('dup'), embedding: new Float32Array(16) },
      { textHash: textHash('dup'), embedding: new Float32Array(16) },
    ]);
    const found = await store.get('pg-bulk', 16, texts.map(textHash));
    expect(found.size).toBe(1_200);
    expect(Array.from(found.get(textHash('bulk text 777'))!)).toEqual(Array.from(vectors[777]));
  });

  it('refuses a malformed key or a vector of another length than recorded (table constraints)', async () => {
    await expect(sql`INSERT INTO fl_embedding_cache (model, text_sha256, dimensions, embedding) VALUES ('m', 'nothex', 1, '[1]')`.execute(database.db)).rejects.toThrow(/check constraint/);
    await expect(sql`INSERT INTO fl_embedding_cache (model, text_sha256, dimensions, embedding) VALUES ('m', ${textHash('x')}, 2, '[1]')`.execute(database.db)).rejects.toThrow(/check constraint/);
  });
});
