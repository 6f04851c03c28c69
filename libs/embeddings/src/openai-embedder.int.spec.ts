/**
 * The OpenAI-compatible adapter against a real HTTP server on 127.0.0.1 that speaks the
 * `/v1/embeddings` protocol (vectors from the hashing embedder), with scripted failures.
 * Retries are the `openai` SDK's, whose backoff starts at 0.5 s and cannot be shortened: the
 * scripted failures that are retried mostly answer `Retry-After: 0`, which the SDK obeys.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidInputError } from '@factledger/domain';
import { CachedEmbedder } from './cached-embedder';
import { EmbeddingDimensionMismatchError, EmbeddingResponseError, EmbeddingServiceError, EmbeddingServiceUnreachableError, EmbeddingTimeoutError } from './errors';
import { HashingEmbedder } from '@factledger/testing';
import { InMemoryEmbeddingCache } from './in-memory-embedding-cache';
import { OpenAiEmbedder, type OpenAiEmbedderOptions } from './openai-embedder';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: { model: string; input: string[]; encoding_format?: string; dimensions?: number };
}
/** What the server does with the next request; when none is scripted it answers properly. */
type Script = (req: Received, res: ServerResponse) => void | 'answer';

const DIMS = 24;
const reference = new HashingEmbedder(DIMS);

describe('OpenAiEmbedder against a local OpenAI-compatible server', () => {
  let server: Server;
  let baseUrl: string;
  const received: Received[] = [];
  let script: Script[] = [];
  let servedDims = DIMS;

  const answer = async (req: Received, res: ServerResponse) => {
    const vectors = await new HashingEmbedder(servedDims).embed(req.body.input);
    // Deliberately out of order: clients must place embeddings by `index`.
    const data = vectors.map((v, index) => ({ object: 'embedding', index, embedding: Array.from(v) })).reverse();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data, model: req.body.model, usage: { prompt_tokens: 0, total_tokens: 0 } }));
  };

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const got: Received = { path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
      received.push(got);
      if (req.method !== 'POST' || got.path !== '/v1/embeddings') {
        res.writeHead(404).end('{"error":"not found"}');
        return;
      }
      const next = script.shift();
      if (!next || next(got, res) === 'answer') await answer(got, res);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    received.length = 0;
    script = [];
    servedDims = DIMS;
  });

  const embedder = (over: Partial<OpenAiEmbedderOptions> = {}) => new OpenAiEmbedder({ baseUrl, model: 'bge-m3', dimensions: DIMS, ...over });
  const status =
    (code: number, body = '{"error":{"message":"busy"}}', headers: Record<string, string> = {}): Script =>
    (_req, res) => {
      res.writeHead(code, { 'content-type': 'application/json', ...headers });
      res.end(body);
    };

  it('posts {model, input, encoding_format: float} to /v1/embeddings and places each embedding by its index', async () => {
    const texts = ['The payment service listens on port 8080.', '결제 서비스 포트', 'My cat is called Nabi.'];
    const vectors = await embedder({ apiKey: 'sk-test' }).embed(texts);
    expect(received).toHaveLength(1);
    expect(received[0].body).toEqual({ model: 'bge-m3', input: texts, encoding_format: 'float' });
    expect(received[0].headers.authorization).toBe('Bearer sk-test');
    expect(received[0].headers['content-type']).toBe('application/json');
    const expected = await reference.embed(texts);
    vectors.forEach((v, i) => {
      expect(v).toBeInstanceOf(Float32Array);
      expect(Array.from(v)).toEqual(Array.from(expected[i]));
    });
  });

  it('accepts a base URL that already ends in /v1, sends no Authorization without a key', async () => {
    const e = embedder({ baseUrl: `${baseUrl}/v1/` });
    expect(e.url).toBe(`${baseUrl}/v1/embeddings`);
    await e.embed(['x']);
    expect(received[0].headers.authorization).toBeUndefined();
    expect(received[0].body).not.toHaveProperty('dimensions');
  });

  it('sends dimensions only when asked to', async () => {
    await embedder({ sendDimensions: true }).embed(['x']);
    expect(received[0].body.dimensions).toBe(DIMS);
  });

  it('splits a long input into requests of maxBatchSize, in order', async () => {
    const texts = Array.from({ length: 7 }, (_, i) => `text ${i}`);
    const vectors = await embedder({ maxBatchSize: 3 }).embed(texts);
    expect(received.map((r) => r.body.input)).toEqual([texts.slice(0, 3), texts.slice(3, 6), texts.slice(6)]);
    const expected = await reference.embed(texts);
    vectors.forEach((v, i) => expect(Array.from(v)).toEqual(Array.from(expected[i])));
  });

  it('sends no request for no texts', async () => {
    expect(await embedder().embed([])).toEqual([]);
    expect(received).toHaveLength(0);
  });

  const now = { 'retry-after': '0' };

  it('retries a 503 after the backoff and succeeds on the next attempt', async () => {
    script = [status(503)];
    const start = performance.now();
    const vectors = await embedder().embed(['retry me']);
    expect(performance.now() - start).toBeGreaterThanOrEqual(0.75 * 500); // the SDK's first backoff, less up to 25 % jitter
    expect(received).toHaveLength(2);
    expect(Array.from(vectors[0])).toEqual(Array.from((await reference.embed(['retry me']))[0]));
  });

  it('retries a 429, honouring Retry-After', async () => {
    script = [status(429, '{"error":"slow down"}', { 'retry-after': '0.05' })];
    const start = performance.now();
    await embedder().embed(['x']);
    expect(received).toHaveLength(2);
    expect(performance.now() - start).toBeGreaterThanOrEqual(45);
  });

  it('gives up after maxRetries with a typed error carrying the status and body', async () => {
    script = [status(503, undefined, now), status(500, undefined, now), status(503)];
    const error = await embedder({ maxRetries: 2 })
      .embed(['x'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingServiceError);
    expect(error).toMatchObject({ code: 'embedding_service_error', status: 503, attempts: 3 });
    expect((error as Error).message).toMatch(/HTTP 503 after 3 attempt\(s\).*busy/);
    expect(received).toHaveLength(3);
  });

  it('does not retry a client error, and says what to check', async () => {
    script = [status(401, '{"error":{"message":"invalid api key"}}')];
    const error = await embedder()
      .embed(['x'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingServiceError);
    expect(error).toMatchObject({ status: 401, attempts: 1 });
    expect((error as Error).message).toMatch(/invalid api key.*check the API key/);
    expect(received).toHaveLength(1);
    script = [status(502, undefined, now), status(400, '{"error":"bad input"}')];
    expect(
      await embedder()
        .embed(['x'])
        .catch((e: unknown) => e),
    ).toMatchObject({ status: 400, attempts: 2 });
  });

  it('reports a dimension mismatch as a typed error', async () => {
    servedDims = 8;
    const error = await embedder()
      .embed(['x'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingDimensionMismatchError);
    expect(error).toMatchObject({ code: 'embedding_dimension_mismatch', model: 'bge-m3', expected: DIMS, actual: 8 });
  });

  it('rejects responses that are not an embeddings list', async () => {
    script = [status(200, 'not json')];
    await expect(embedder().embed(['x'])).rejects.toBeInstanceOf(EmbeddingResponseError);
    script = [status(200, JSON.stringify({ data: [{ index: 0, embedding: Array(DIMS).fill(0) }] }))];
    await expect(embedder().embed(['x', 'y'])).rejects.toThrow(/1 embeddings for 2 inputs/);
    script = [status(200, JSON.stringify({ data: [{ index: 0, embedding: 'AAAA' }] }))];
    await expect(embedder().embed(['x'])).rejects.toThrow(/not an array of finite numbers/);
    script = [status(200, JSON.stringify({ data: [0, 0].map(() => ({ index: 0, embedding: Array(DIMS).fill(0) })) }))];
    await expect(embedder().embed(['x', 'y'])).rejects.toThrow(/repeated index/);
  });

  it('rejects a 2xx body that is not JSON, or not an object with `data`', async () => {
    script = [status(200, 'plain text', { 'content-type': 'text/plain' })];
    await expect(embedder().embed(['x'])).rejects.toThrow(/unusable response: not JSON: plain text/);
    script = [status(200, '{"object":"list"}')];
    await expect(embedder().embed(['x'])).rejects.toThrow(/no `data` array/);
    for (const item of [{ index: -1 }, { index: 1 }, { index: '0' }]) {
      script = [status(200, JSON.stringify({ data: [{ ...item, embedding: Array(DIMS).fill(0) }] }))];
      await expect(embedder().embed(['x'])).rejects.toThrow(/bad or repeated index/);
    }
    script = [status(200, JSON.stringify({ data: [null] }))];
    await expect(embedder().embed(['x'])).rejects.toThrow(/embedding 0 is not an array of finite numbers/);
    expect(received).toHaveLength(6); // a 2xx is not retried
  });

  it('times out a request that gets no answer, with a typed error', async () => {
    script = [() => undefined]; // never answers
    const start = performance.now();
    const error = await embedder({ timeoutMs: 150, maxRetries: 0 })
      .embed(['x'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingTimeoutError);
    expect(error).toMatchObject({ code: 'embedding_timeout', timeoutMs: 150 });
    expect(performance.now() - start).toBeLessThan(2000);
  });

  it('retries a timed-out attempt, and types the timeout when every attempt times out', async () => {
    script = [() => undefined];
    await embedder({ timeoutMs: 150, maxRetries: 1 }).embed(['x']);
    expect(received).toHaveLength(2);
    received.length = 0;
    script = [() => undefined, () => undefined];
    const error = await embedder({ timeoutMs: 150, maxRetries: 1 })
      .embed(['x'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingTimeoutError);
    expect(received).toHaveLength(2);
  });

  it('times out a body that stops halfway (the timeout covers the body, not only the headers)', async () => {
    script = [
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"object":"list","data":[');
      },
    ];
    await expect(embedder({ timeoutMs: 150, maxRetries: 0 }).embed(['x'])).rejects.toBeInstanceOf(EmbeddingTimeoutError);
  });

  it('reports an unreachable service after retrying the connection', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await embedder({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 })
      .embed(['x'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingServiceUnreachableError);
    expect(error).toMatchObject({ code: 'embedding_service_unreachable', attempts: 2 });
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('validates its options', () => {
    expect(() => new OpenAiEmbedder({ baseUrl: 'not a url', model: '', dimensions: 0 })).toThrow(InvalidInputError);
    expect(() => new OpenAiEmbedder({ baseUrl: 'ftp://x', model: 'm', dimensions: 3 })).toThrow(/embedder.baseUrl: must be an http\(s\) URL/);
  });

  it('behind the cache, sends each distinct text to the server once', async () => {
    const cached = new CachedEmbedder(embedder(), new InMemoryEmbeddingCache());
    await cached.embed(['a', 'b', 'a']);
    await cached.embed(['b', 'c']);
    expect(received.map((r) => r.body.input)).toEqual([['a', 'b'], ['c']]);
  });
});
