/**
 * Embeddings from any OpenAI-compatible service (`POST {baseUrl}/v1/embeddings`): OpenAI,
 * Ollama, vLLM, Hugging Face TEI, for the multilingual models (bge-m3, e5) the offline model
 * lacks. Inputs go in batches of `maxBatchSize`, one request after another.
 *
 * The HTTP is the official `openai` SDK's, so that retries (429, 408, 409 and 5xx answers,
 * failed connections and timeouts, with the SDK's jittered exponential backoff honouring
 * `Retry-After`), timeouts and error types come from a well-kept library rather than a
 * hand-written loop. What is left here: the options check, the SDK's errors mapped onto the
 * typed ones in `./errors` (after the SDK's retries, a failure is one of them), and a check
 * (zod) of what the SDK does not guarantee of a reply: one embedding per input, placed by its
 * `index`, each an array of finite numbers of the configured length. The SDK, an optional peer,
 * is loaded on the first request (@factledger/llm's openai-compatible.ts).
 */
import { z } from 'zod';
import { InvalidInputError } from '@factledger/domain';
import { type OpenAiCompatibleClient, type OpenAiCompatibleFailure, openAiCompatibleClient } from '@factledger/llm';
import type { Embedder, Embedding } from './embedder.port';
import { EmbeddingDimensionMismatchError, EmbeddingResponseError, EmbeddingServiceError, EmbeddingServiceUnreachableError, EmbeddingTimeoutError } from './errors';

export interface OpenAiEmbedderOptions {
  /** e.g. `http://127.0.0.1:11434` (Ollama) or `https://api.openai.com`; a trailing `/v1` is accepted too. */
  baseUrl: string;
  model: string;
  /** What the model produces; every embedding is checked against it. */
  dimensions: number;
  /** Sent as `Authorization: Bearer …` when set; without it no `Authorization` header is sent. */
  apiKey?: string;
  /** Per attempt, body included. Default 30 000. */
  timeoutMs?: number;
  /** Inputs per request. Default 32, the default request limit of Hugging Face TEI. */
  maxBatchSize?: number;
  /** Retries after the first attempt, by the SDK (429, 408, 409, 5xx, failed connections, timeouts). Default 3. */
  maxRetries?: number;
  /** Also send `dimensions` in the request, for models that shorten their output (OpenAI text-embedding-3). Default false. */
  sendDimensions?: boolean;
}

function validate(options: OpenAiEmbedderOptions): void {
  const issues: { path: string; message: string }[] = [];
  try {
    const url = new URL(options.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') issues.push({ path: 'baseUrl', message: 'must be an http(s) URL' });
  } catch {
    issues.push({ path: 'baseUrl', message: 'must be a URL' });
  }
  if (!options.model) issues.push({ path: 'model', message: 'must not be empty' });
  const positive = { dimensions: options.dimensions, timeoutMs: options.timeoutMs, maxBatchSize: options.maxBatchSize };
  for (const [path, value] of Object.entries(positive)) {
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) issues.push({ path, message: 'must be a positive integer' });
  }
  for (const [path, value] of Object.entries({ maxRetries: options.maxRetries })) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) issues.push({ path, message: 'must be an integer >= 0' });
  }
  if (issues.length) throw new InvalidInputError(issues.map((i) => ({ ...i, path: `embedder.${i.path}` })));
}

/** The parts of a reply used: `data`, and in each item `index` (optional: its position) and `embedding`. */
const replySchema = z.object({ data: z.array(z.unknown()) });
const itemSchema = z
  .object({
    index: z.int().nonnegative().optional().catch(-1), // -1: there, and not an index
    embedding: z.array(z.number()).optional().catch(undefined), // undefined: not an array of finite numbers
  })
  .catch({ embedding: undefined });

export class OpenAiEmbedder implements Embedder {
  readonly model: string;
  readonly dimensions: number;
  /** The endpoint, `{baseUrl}/v1/embeddings`. */
  readonly url: string;
  private readonly timeoutMs: number;
  private readonly maxBatchSize: number;
  private readonly sendDimensions: boolean;
  private readonly client: OpenAiCompatibleClient;

  constructor(options: OpenAiEmbedderOptions) {
    validate(options);
    this.model = options.model;
    this.dimensions = options.dimensions;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxBatchSize = options.maxBatchSize ?? 32;
    this.sendDimensions = options.sendDimensions ?? false;
    this.client = openAiCompatibleClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, timeoutMs: this.timeoutMs, maxRetries: options.maxRetries ?? 3 });
    this.url = `${this.client.baseURL}/embeddings`;
  }

  async embed(texts: string[]): Promise<Embedding[]> {
    const embeddings: Embedding[] = [];
    for (let start = 0; start < texts.length; start += this.maxBatchSize) {
      embeddings.push(...(await this.embedBatch(texts.slice(start, start + this.maxBatchSize))));
    }
    return embeddings;
  }

  private async embedBatch(input: string[]): Promise<Embedding[]> {
    const result = await this.client.embeddings({
      model: this.model,
      input,
      // Floats, as every OpenAI-compatible server sends them; the SDK's default asks for base64
      // and decodes whatever comes back as base64, which a server ignoring the field breaks.
      encoding_format: 'float',
      ...(this.sendDimensions ? { dimensions: this.dimensions } : {}),
    });
    if (!result.ok) throw this.failure(result.failure, result.attempts);
    return this.parse(result.reply, input.length);
  }

  /** The SDK's failure (after its retries) as one of ours. */
  private failure(failure: OpenAiCompatibleFailure, attempts: number): Error {
    switch (failure.kind) {
      case 'timeout':
        return new EmbeddingTimeoutError(this.url, this.timeoutMs);
      case 'unreachable':
        return new EmbeddingServiceUnreachableError(this.url, failure.reason, attempts);
      case 'status':
        return new EmbeddingServiceError(this.url, failure.status, failure.body.slice(0, 500), attempts);
      case 'not-json':
        return new EmbeddingResponseError(this.url, `not JSON: ${failure.message.slice(0, 200)}`);
    }
  }

  private parse(reply: unknown, count: number): Embedding[] {
    // The SDK hands over a body that is not declared JSON as a string.
    if (typeof reply === 'string') throw new EmbeddingResponseError(this.url, `not JSON: ${reply.slice(0, 200)}`);
    const list = replySchema.safeParse(reply);
    if (!list.success) throw new EmbeddingResponseError(this.url, 'no `data` array');
    const { data } = list.data;
    if (data.length !== count) throw new EmbeddingResponseError(this.url, `${data.length} embeddings for ${count} inputs`);
    const embeddings = new Array<Embedding | undefined>(count);
    data.forEach((raw, position) => {
      const { index = position, embedding } = itemSchema.parse(raw);
      if (index < 0 || index >= count || embeddings[index]) {
        throw new EmbeddingResponseError(this.url, `bad or repeated index ${JSON.stringify((raw as { index?: unknown } | null)?.index)}`);
      }
      if (!embedding) throw new EmbeddingResponseError(this.url, `embedding ${index} is not an array of finite numbers`);
      if (embedding.length !== this.dimensions) throw new EmbeddingDimensionMismatchError(this.model, this.dimensions, embedding.length);
      embeddings[index] = Float32Array.from(embedding);
    });
    return embeddings as Embedding[];
  }
}
