/**
 * The real Universal Sentence Encoder Lite, loaded once for this file from the installed package.
 * Network access is cut off for the whole file (fetch, http, https throw), so a load that tried to
 * reach TF Hub would fail here rather than pass quietly. That cut-off reaches this thread only, so
 * the file's embedder computes here (`thread: 'main'`); the worker thread, what servers use, loads
 * the same packaged weights and is compared with it.
 */
import http from 'node:http';
import https from 'node:https';
import { cosineSimilarity } from './embedder.port';
import { embeddingText } from './embedding-text';
import { USE_LITE_DIMENSIONS, UseLiteEmbedder } from './use-lite-embedder';

const networkAttempts: string[] = [];
const refuse =
  (what: string) =>
  (...args: unknown[]) => {
    networkAttempts.push(`${what} ${String(args[0])}`);
    throw new Error(`network access attempted in an offline test: ${what} ${String(args[0])}`);
  };
const originals = { fetch: globalThis.fetch, httpRequest: http.request, httpGet: http.get, httpsRequest: https.request, httpsGet: https.get };

describe('UseLiteEmbedder (offline Universal Sentence Encoder Lite)', () => {
  const embedder = new UseLiteEmbedder({ thread: 'main' });
  let loadMs = 0;

  beforeAll(async () => {
    globalThis.fetch = refuse('fetch') as typeof fetch;
    Object.assign(http, { request: refuse('http.request'), get: refuse('http.get') });
    Object.assign(https, { request: refuse('https.request'), get: refuse('https.get') });
    const start = performance.now();
    await embedder.load();
    loadMs = performance.now() - start;
  });

  afterAll(() => {
    globalThis.fetch = originals.fetch;
    Object.assign(http, { request: originals.httpRequest, get: originals.httpGet });
    Object.assign(https, { request: originals.httpsRequest, get: originals.httpsGet });
  });

  it('loads from the installed package without touching the network, and names its weights', () => {
    expect(networkAttempts).toEqual([]);
    expect(embedder.model).toMatch(/^universal-sentence-encoder-lite-en@\d+\.\d+\.\d+$/);
    expect(embedder.dimensions).toBe(512);
  });

  it('returns 512-dimensional float32 unit vectors', async () => {
    const [a] = await embedder.embed(['The payment service listens on port 8080.']);
    expect(a).toBeInstanceOf(Float32Array);
    expect(a).toHaveLength(USE_LITE_DIMENSIONS);
    expect(Math.hypot(...a)).toBeCloseTo(1, 4);
  });

  it('places a question near the statement that answers it, far from an unrelated one', async () => {
    const [statement, question, unrelated] = await embedder.embed(['The payment service listens on port 8080.', 'Which port does the payment service use?', 'My cat is called Nabi.']);
    const near = cosineSimilarity(statement, question);
    const far = cosineSimilarity(statement, unrelated);
    expect(near).toBeGreaterThan(far);
    expect(near - far).toBeGreaterThan(0.2);
  });

  it('keeps the order of a batch: each text gets its own embedding back', async () => {
    const texts = ['I like my coffee black.', 'The deploy runs every Friday.', 'Seoul is the capital of South Korea.'];
    const batched = await embedder.embed(texts);
    const alone = await Promise.all(texts.map(async (t) => (await embedder.embed([t]))[0]));
    batched.forEach((vector, i) => {
      expect(cosineSimilarity(vector, alone[i])).toBeGreaterThan(0.9999);
      alone.forEach((other, j) => j !== i && expect(cosineSimilarity(vector, other)).toBeLessThan(0.9));
    });
  });

  it('is deterministic: the same input gives the same vector', async () => {
    const texts = ['The payment service listens on port 8080.', 'My cat is called Nabi.'];
    const [first, second] = [await embedder.embed(texts), await embedder.embed(texts)];
    expect(Array.from(second[0])).toEqual(Array.from(first[0]));
    expect(Array.from(second[1])).toEqual(Array.from(first[1]));
  });

  it('handles an empty batch, an empty text and repeated texts', async () => {
    expect(await embedder.embed([])).toEqual([]);
    const [empty, a, again] = await embedder.embed(['', 'same text', 'same text']);
    expect(empty).toHaveLength(512);
    expect(Array.from(again)).toEqual(Array.from(a));
  });

  it('gives each of many concurrent callers its own answer (they share batches)', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => `Reminder number ${i}: water the plants on floor ${i % 7}.`);
    const separately = await Promise.all(texts.map((t) => embedder.embed([t])));
    const together = await embedder.embed(texts);
    separately.forEach(([vector], i) => expect(cosineSimilarity(vector, together[i])).toBeGreaterThan(0.9999));
  });

  it('embeds the type description with the text (the typed text stays close to the plain one)', async () => {
    const [plain, typed] = await embedder.embed(['I prefer dark mode in every editor.', embeddingText('preference', 'I prefer dark mode in every editor.')]);
    expect(cosineSimilarity(plain, typed)).toBeGreaterThan(0.7);
  });

  it('measures: model load, and the per-sentence time of a batch of 100', async () => {
    const sentences = Array.from({ length: 100 }, (_, i) => `Service ${i} of the billing platform listens on port ${8000 + i} in staging.`);
    const start = performance.now();
    const vectors = await embedder.embed(sentences);
    const batchMs = performance.now() - start;
    expect(vectors).toHaveLength(100);
    process.stdout.write(`[use-lite] model load ${loadMs.toFixed(0)} ms; 100 sentences batched in ${batchMs.toFixed(0)} ms ` + `(${(batchMs / 100).toFixed(2)} ms a sentence)\n`);
  });

  it("computes in a worker thread by default, with the same vectors as in the caller's thread", async () => {
    const threaded = new UseLiteEmbedder();
    const texts = ['The billing database runs on db-7.', 'Minji moved to Busan last spring.', 'ok'];
    const [here, there] = await Promise.all([embedder.embed(texts), threaded.embed(texts)]);
    expect(there).toHaveLength(3);
    there.forEach((v, i) => {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(USE_LITE_DIMENSIONS);
      expect(cosineSimilarity(v, here[i]!)).toBeGreaterThan(0.9999);
    });
  }, 60_000);

  it("answers a query's few texts before a large call queued ahead of them has finished", async () => {
    const threaded = new UseLiteEmbedder();
    await threaded.load();
    const order: string[] = [];
    const page = threaded.embed(Array.from({ length: 96 }, (_, i) => `Memory number ${i} of an indexer's page.`)).then(() => order.push('page'));
    const query = threaded.embed(['Where does the billing database run?']).then(() => order.push('query'));
    await Promise.all([page, query]);
    expect(order).toEqual(['query', 'page']);
  }, 60_000);

  it('starts another thread for the next call once its thread has ended', async () => {
    const threaded = new UseLiteEmbedder();
    const [before] = await threaded.embed(['The staging cluster moved to Oslo.']);
    await threaded.close();
    const [after] = await threaded.embed(['The staging cluster moved to Oslo.']);
    expect(cosineSimilarity(before!, after!)).toBeGreaterThan(0.9999);
  }, 60_000);
});
