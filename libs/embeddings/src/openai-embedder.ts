/**
 * Embeddings from any OpenAI-compatible service (`POST {baseUrl}/v1/embeddings`): OpenAI,
 * Ollama, vLLM, Hugging Face TEI, for the multilingual models (bge-m3, e5) the offline model
 * lacks. Inputs go in batches of `maxBatchSize`, one request after another; 429 and 5xx answers
 * and refused connections are retried with capped, jittered exponential backoff (honouring
 * `Retry-After`); every other failure is a typed error at once.
 *
 * The retry is a short loop rather than a library: p-retry and cockatiel, the well-kept ones,
 * are ESM-only and need Node >= 22, while this build is CommonJS on Node >= 20 (and Jest's
 * CommonJS runtime cannot require ESM); and the decision needs the HTTP status and header anyway.
 */
import { InvalidInputError } from '@factledger/domain';
import type { Embedder, Embedding } from './embedder.port';
import {
  EmbeddingDimensionMismatchError,
  EmbeddingResponseError,
  EmbeddingServiceError,
  EmbeddingServiceUnreachableError,
  EmbeddingTimeoutError,
} from './errors';

export interface OpenAiEmbedderOptions {
  /** e.g. `http://127.0.0.1:11434` (Ollama) or `https://api.openai.com`; a trailing `/v1` is accepted too. */
  baseUrl: string;
  model: string;
  /** What the model produces; every embedding is checked against it. */
  dimensions: number;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  /** Per request, body included. Default 30 000. */
  timeoutMs?: number;
  /** Inputs per request. Default 32, the default request limit of Hugging Face TEI. */
  maxBatchSize?: number;
  /** Retries after the first attempt, for 429, 5xx and refused connections. Default 3. */
  maxRetries?: number;
  /** First backoff; doubles each retry, jittered, capped at `retryMaxDelayMs` (default 250 / 8 000). */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** Also send `dimensions` in the request, for models that shorten their output (OpenAI text-embedding-3). Default false. */
  sendDimensions?: boolean;
}

type Attempt = { kind: 'ok'; body: unknown } | { kind: 'retry'; status?: number; body?: string; reason?: string; retryAfterMs?: number };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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
  for (const [path, value] of Object.entries({ maxRetries: options.maxRetries, retryBaseDelayMs: options.retryBaseDelayMs, retryMaxDelayMs: options.retryMaxDelayMs })) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) issues.push({ path, message: 'must be an integer >= 0' });
  }
  if (issues.length) throw new InvalidInputError(issues.map((i) => ({ ...i, path: `embedder.${i.path}` })));
}

/** Seconds or an HTTP date, as `Retry-After` allows; undefined when absent or unreadable. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export class OpenAiEmbedder implements Embedder {
  readonly model: string;
  readonly dimensions: number;
  /** The endpoint, `{baseUrl}/v1/embeddings`. */
  readonly url: string;
  private readonly apiKey?: string;
  private readonly timeoutMs: number;
  private readonly maxBatchSize: number;
  private readonly maxRetries: number;
  private readonly retryBaseDelayMs: number;
  private readonly retryMaxDelayMs: number;
  private readonly sendDimensions: boolean;

  constructor(options: OpenAiEmbedderOptions) {
    validate(options);
    this.model = options.model;
    this.dimensions = options.dimensions;
    this.url = `${options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/embeddings`;
    this.apiKey = options.apiKey || undefined;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxBatchSize = options.maxBatchSize ?? 32;
    this.maxRetries = options.maxRetries ?? 3;
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? 250;
    this.retryMaxDelayMs = options.retryMaxDelayMs ?? 8_000;
    this.sendDimensions = options.sendDimensions ?? false;
  }

  async embed(texts: string[]): Promise<Embedding[]> {
    const embeddings: Embedding[] = [];
    for (let start = 0; start < texts.length; start += this.maxBatchSize) {
      embeddings.push(...(await this.embedBatch(texts.slice(start, start + this.maxBatchSize))));
    }
    return embeddings;
  }

  private async embedBatch(input: string[]): Promise<Embedding[]> {
    const request = JSON.stringify({ model: this.model, input, ...(this.sendDimensions ? { dimensions: this.dimensions } : {}) });
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.post(request, attempt);
      if (outcome.kind === 'ok') return this.parse(outcome.body, input.length);
      if (attempt > this.maxRetries) {
        if (outcome.status !== undefined) throw new EmbeddingServiceError(this.url, outcome.status, outcome.body ?? '', attempt);
        throw new EmbeddingServiceUnreachableError(this.url, outcome.reason ?? 'unknown', attempt);
      }
      const backoff = Math.min(this.retryMaxDelayMs, this.retryBaseDelayMs * 2 ** (attempt - 1));
      await sleep(Math.min(this.retryMaxDelayMs, outcome.retryAfterMs ?? backoff * (0.5 + Math.random() / 2)));
    }
  }

  /** One request. Throws what must not be retried; returns what may be. */
  private async post(request: string, attempt: number): Promise<Attempt> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    const signal = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    try {
      response = await fetch(this.url, { method: 'POST', headers, body: request, signal });
    } catch (error) {
      if (signal.aborted) throw new EmbeddingTimeoutError(this.url, this.timeoutMs);
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return { kind: 'retry', reason: cause?.code ?? cause?.message ?? (error as Error).message };
    }
    try {
      if (response.ok) {
        const text = await response.text();
        try {
          return { kind: 'ok', body: JSON.parse(text) };
        } catch {
          throw new EmbeddingResponseError(this.url, `not JSON: ${text.slice(0, 200)}`);
        }
      }
      const body = (await response.text()).slice(0, 500);
      if (response.status === 429 || response.status >= 500) {
        return { kind: 'retry', status: response.status, body, retryAfterMs: retryAfterMs(response.headers.get('retry-after')) };
      }
      throw new EmbeddingServiceError(this.url, response.status, body, attempt);
    } catch (error) {
      if (signal.aborted) throw new EmbeddingTimeoutError(this.url, this.timeoutMs);
      throw error;
    }
  }

  private parse(body: unknown, count: number): Embedding[] {
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw new EmbeddingResponseError(this.url, 'no `data` array');
    if (data.length !== count) throw new EmbeddingResponseError(this.url, `${data.length} embeddings for ${count} inputs`);
    const embeddings: (Embedding | undefined)[] = new Array(count);
    data.forEach((item: { embedding?: unknown; index?: unknown }, position) => {
      const index = item?.index ?? position;
      if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= count || embeddings[index as number]) {
        throw new EmbeddingResponseError(this.url, `bad or repeated index ${JSON.stringify(item?.index)}`);
      }
      const vector = item.embedding;
      if (!Array.isArray(vector) || !vector.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new EmbeddingResponseError(this.url, `embedding ${index} is not an array of finite numbers`);
      }
      if (vector.length !== this.dimensions) throw new EmbeddingDimensionMismatchError(this.model, this.dimensions, vector.length);
      embeddings[index as number] = Float32Array.from(vector);
    });
    return embeddings as Embedding[];
  }
}
