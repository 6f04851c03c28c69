import { CachedEmbedder } from './cached-embedder';
import type { Embedder, Embedding } from './embedder.port';
import { textHash } from './embedding-cache.port';
import { EmbeddingDimensionMismatchError } from './errors';
import { HashingEmbedder } from '@factledger/testing';
import { InMemoryEmbeddingCache } from './in-memory-embedding-cache';

/** A real (hashing) embedder that records every text it is asked to embed. */
class RecordingEmbedder implements Embedder {
  readonly calls: string[][] = [];
  private readonly inner: HashingEmbedder;
  constructor(
    readonly model = 'recording',
    readonly dimensions = 16,
    private readonly delayMs = 0,
  ) {
    this.inner = new HashingEmbedder(dimensions);
  }
  get texts(): string[] {
    return this.calls.flat();
  }
  async embed(texts: string[]): Promise<Embedding[]> {
    this.calls.push([...texts]);
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    return this.inner.embed(texts);
  }
}

describe('CachedEmbedder with the in-memory store', () => {
  it('embeds each distinct text once, across calls and within one', async () => {
    const inner = new RecordingEmbedder();
    const cached = new CachedEmbedder(inner, new InMemoryEmbeddingCache());
    const first = await cached.embed(['a b', 'c d', 'a b']);
    const second = await cached.embed(['c d', 'e f', 'a b']);
    expect(inner.calls).toEqual([['a b', 'c d'], ['e f']]);
    expect(Array.from(first[0])).toEqual(Array.from(first[2]));
    expect(Array.from(second[2])).toEqual(Array.from(first[0]));
    expect(Array.from(second[0])).toEqual(Array.from(first[1]));
    const direct = await new HashingEmbedder(16).embed(['c d', 'e f', 'a b']);
    second.forEach((v, i) => expect(Array.from(v)).toEqual(Array.from(direct[i])));
  });

  it('keeps the model and dimensions of the inner embedder and keys the cache by model', async () => {
    const store = new InMemoryEmbeddingCache();
    const one = new RecordingEmbedder('model-one');
    const two = new RecordingEmbedder('model-two');
    const cachedOne = new CachedEmbedder(one, store);
    expect([cachedOne.model, cachedOne.dimensions]).toEqual(['model-one', 16]);
    await cachedOne.embed(['same text']);
    await new CachedEmbedder(two, store).embed(['same text']);
    await cachedOne.embed(['same text']);
    expect([one.texts, two.texts]).toEqual([['same text'], ['same text']]);
  });

  it('treats texts that differ in any byte as different (no trimming, no normalisation)', async () => {
    const inner = new RecordingEmbedder();
    const cached = new CachedEmbedder(inner, new InMemoryEmbeddingCache());
    await cached.embed(['Café', 'Cafe\u0301', 'Café ', 'café']);
    expect(inner.texts).toHaveLength(4);
    expect(textHash('Café')).not.toBe(textHash('Cafe\u0301'));
  });

  it('embeds a text once when concurrent calls ask for it at the same time', async () => {
    const inner = new RecordingEmbedder('slow', 16, 20);
    const cached = new CachedEmbedder(inner, new InMemoryEmbeddingCache());
    const results = await Promise.all([cached.embed(['x', 'y']), cached.embed(['y', 'z']), cached.embed(['x', 'z', 'y'])]);
    expect(inner.texts.sort()).toEqual(['x', 'y', 'z']);
    expect(Array.from(results[2][2])).toEqual(Array.from(results[0][1]));
  });

  it('passes an inner failure to every caller waiting on it, caches nothing, and tries again next time', async () => {
    let fail = true;
    const inner = new RecordingEmbedder();
    const flaky: Embedder = {
      model: inner.model,
      dimensions: inner.dimensions,
      embed: async (texts) => {
        if (fail) throw new Error('model crashed');
        return inner.embed(texts);
      },
    };
    const store = new InMemoryEmbeddingCache();
    const cached = new CachedEmbedder(flaky, store);
    const both = await Promise.allSettled([cached.embed(['p']), cached.embed(['p', 'q'])]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(store.size).toBe(0);
    fail = false;
    expect(await cached.embed(['p', 'q'])).toHaveLength(2);
    expect(store.size).toBe(2);
  });

  it('rejects embeddings of the wrong length from the inner embedder and does not cache them', async () => {
    const liar: Embedder = { model: 'liar', dimensions: 8, embed: async (texts) => texts.map(() => new Float32Array(4)) };
    const store = new InMemoryEmbeddingCache();
    await expect(new CachedEmbedder(liar, store).embed(['t'])).rejects.toBeInstanceOf(EmbeddingDimensionMismatchError);
    expect(store.size).toBe(0);
  });

  it('returns nothing for nothing without calling the store or the model', async () => {
    const inner = new RecordingEmbedder();
    expect(await new CachedEmbedder(inner, new InMemoryEmbeddingCache()).embed([])).toEqual([]);
    expect(inner.calls).toEqual([]);
  });
});

describe('InMemoryEmbeddingCache', () => {
  const v = (...xs: number[]) => Float32Array.from(xs);

  it('evicts the least recently used entry beyond its bound', async () => {
    const cache = new InMemoryEmbeddingCache({ maxEntries: 2 });
    await cache.put('m', [
      { textHash: 'a', embedding: v(1) },
      { textHash: 'b', embedding: v(2) },
    ]);
    await cache.get('m', 1, ['a']); // a is now the most recent
    await cache.put('m', [{ textHash: 'c', embedding: v(3) }]);
    expect([...(await cache.get('m', 1, ['a', 'b', 'c'])).keys()].sort()).toEqual(['a', 'c']);
  });

  it('misses an entry of another length and replaces it on put', async () => {
    const cache = new InMemoryEmbeddingCache();
    await cache.put('m', [{ textHash: 'a', embedding: v(1, 2) }]);
    expect((await cache.get('m', 3, ['a'])).size).toBe(0);
    await cache.put('m', [{ textHash: 'a', embedding: v(1, 2, 3) }]);
    expect(Array.from((await cache.get('m', 3, ['a'])).get('a')!)).toEqual([1, 2, 3]);
  });
});

describe('HashingEmbedder', () => {
  it('is deterministic, normalised, and similar for texts sharing words', async () => {
    const e = new HashingEmbedder(64);
    const [a, b, c, a2] = await e.embed(['port 8080 payment service', 'payment service port', 'my cat Nabi', 'port 8080 payment service']);
    expect(Array.from(a2)).toEqual(Array.from(a));
    expect(Math.hypot(...a)).toBeCloseTo(1, 5);
    const dot = (x: Embedding, y: Embedding) => x.reduce((s, xi, i) => s + xi * y[i], 0);
    expect(dot(a, b)).toBeGreaterThan(dot(a, c));
  });
});
