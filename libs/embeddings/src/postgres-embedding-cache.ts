/**
 * The cache in PostgreSQL (native or PGlite), table `fl_embedding_cache` of migration 003. Vectors
 * are pgvector `vector`s of any length, so one table serves every model and the indexer can copy
 * them into its own tables in SQL. They travel as pgvector's text form, which round-trips float32
 * exactly.
 */
import { type EmbeddingTables, type Executor, slice } from '@factledger/store';
import { type Kysely, sql } from 'kysely';
import type { Embedding } from './embedder.port';
import type { CachedEmbedding, EmbeddingCacheStore } from './embedding-cache.port';

const ROWS_PER_INSERT = 500;

/**
 * pgvector's text form of a vector, `[x,y,…]` (round-trips float32 exactly). Built in one loop:
 * the same text as `Array.from(…).join(',')`, a third of the time, without the array in between.
 */
export function toVectorText(embedding: Embedding): string {
  let text = '[';
  for (let i = 0; i < embedding.length; i++) text += (i ? ',' : '') + embedding[i];
  return `${text}]`;
}
/** A vector from pgvector's text form. */
export const fromVectorText = (text: string): Embedding => Float32Array.from(text.slice(1, -1).split(','), Number);

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * pgvector's binary form of a vector (what `vector_send` writes and `vector_recv` reads). Passed as
 * a statement parameter, pg sends a Buffer in binary, so the server reads the floats as they are:
 * a third of the bytes of the text form, and no number parsing.
 */
export function toVectorBinary(embedding: Embedding): Buffer {
  const bytes = Buffer.allocUnsafe(4 + embedding.length * 4);
  bytes.writeInt16BE(embedding.length, 0);
  bytes.writeInt16BE(0, 2);
  for (let i = 0; i < embedding.length; i++) bytes.writeFloatBE(embedding[i]!, 4 + i * 4);
  return bytes;
}

/**
 * A vector from pgvector's binary form (`vector_send`): the dimension count (int16), an unused
 * int16, then each float32, big-endian. Throws RangeError on a buffer of another length.
 */
export function fromVectorBinary(bytes: Uint8Array): Embedding {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dims = bytes.byteLength >= 4 ? view.getInt16(0) : -1;
  if (dims < 0 || bytes.byteLength !== 4 + dims * 4) throw new RangeError(`not a pgvector binary vector: ${bytes.byteLength} bytes`);
  const out = new Float32Array(dims);
  if (LITTLE_ENDIAN) {
    // Byte-swap into the result's own memory, then read it as floats: no per-element call.
    const raw = new Uint8Array(out.buffer);
    for (let i = 0; i < raw.length; i += 4) {
      raw[i] = bytes[4 + i + 3]!;
      raw[i + 1] = bytes[4 + i + 2]!;
      raw[i + 2] = bytes[4 + i + 1]!;
      raw[i + 3] = bytes[4 + i]!;
    }
  } else for (let i = 0; i < dims; i++) out[i] = view.getFloat32(4 + i * 4);
  return out;
}

export class PostgresEmbeddingCache implements EmbeddingCacheStore {
  private readonly db: Kysely<EmbeddingTables>;

  constructor(db: Executor) {
    this.db = slice(db);
  }

  async get(model: string, dimensions: number, textHashes: readonly string[]): Promise<Map<string, Embedding>> {
    const found = new Map<string, Embedding>();
    if (textHashes.length === 0) return found;
    const rows = await this.db
      .selectFrom('fl_embedding_cache')
      .select(['text_sha256', sql<string>`embedding::text`.as('embedding')])
      .where('model', '=', model)
      .where('dimensions', '=', dimensions)
      .where('text_sha256', '=', sql<string>`ANY(${[...textHashes]}::text[])`)
      .execute();
    for (const row of rows) found.set(row.text_sha256, fromVectorText(row.embedding));
    return found;
  }

  async put(model: string, entries: readonly CachedEmbedding[]): Promise<void> {
    // One row per key: ON CONFLICT DO UPDATE may not touch a row twice in one statement.
    const unique = [...new Map(entries.map((e) => [e.textHash, e.embedding])).entries()];
    for (let start = 0; start < unique.length; start += ROWS_PER_INSERT) {
      const chunk = unique.slice(start, start + ROWS_PER_INSERT);
      await this.db
        .insertInto('fl_embedding_cache')
        .values(chunk.map(([textHash, e]) => ({ model, text_sha256: textHash, dimensions: e.length, embedding: sql<string>`${toVectorText(e)}::vector` })))
        .onConflict((oc) =>
          oc
            .columns(['model', 'text_sha256'])
            .doUpdateSet((eb) => ({ dimensions: eb.ref('excluded.dimensions'), embedding: eb.ref('excluded.embedding'), created_at: sql<Date>`now()` }))
            .whereRef('fl_embedding_cache.dimensions', '<>', 'excluded.dimensions'),
        )
        .execute();
    }
  }

  async forget(textHashes: readonly string[]): Promise<void> {
    if (textHashes.length === 0) return;
    await this.db
      .deleteFrom('fl_embedding_cache')
      .where('text_sha256', '=', sql<string>`ANY (${[...textHashes]}::text[])`)
      .execute();
  }
}
