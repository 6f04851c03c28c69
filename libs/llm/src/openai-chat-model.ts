/**
 * Chat completions from any OpenAI-compatible service (`POST {baseUrl}/v1/chat/completions`):
 * OpenAI, Ollama, vLLM, llama.cpp's server. The HTTP is the official `openai` SDK's, so that
 * retries (429, 408, 409 and 5xx answers, failed connections and timeouts, with the SDK's
 * jittered exponential backoff honouring `Retry-After`), timeouts and error types come from a
 * well-kept library rather than a hand-written client. What is left here: the SDK's errors
 * mapped onto the typed ones in `./errors` (after the SDK's retries, a failure is one of them),
 * and a check (zod) of the one part of the answer used, `choices[0].message.content`.
 */
import OpenAI from 'openai';
import { z } from 'zod';
import type { ChatMessage, ChatModel } from './chat-model.port';
import { LlmBadResponseError, LlmServiceError, LlmTimeoutError, LlmUnreachableError } from './errors';

export interface OpenAiChatModelOptions {
  /** e.g. `http://127.0.0.1:11434` (Ollama) or `https://api.openai.com`; a trailing `/v1` is accepted too. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer …` when set; without it no `Authorization` header is sent. */
  apiKey?: string;
  /** Per attempt, body included. Default 60 000. */
  timeoutMs?: number;
  /** Retries after the first attempt, by the SDK (429, 408, 409, 5xx, failed connections, timeouts). Default 2. */
  maxRetries?: number;
}

const replySchema = z.object({ choices: z.tuple([z.object({ message: z.object({ content: z.string() }) })], z.unknown()) });

/**
 * A `fetch` for the SDK that reads the whole body before handing the response over, so the
 * SDK's per-attempt timeout (its timer stops when `fetch` resolves) covers the body too, and
 * keeps the body of an error answer verbatim for the typed error (the SDK keeps only parts).
 */
function bufferingFetch(): { fetch: typeof fetch; errorBody: string } {
  const record = {
    errorBody: '',
    fetch: async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      try {
        const response = await fetch(input, init);
        const body = await response.arrayBuffer();
        if (!response.ok) record.errorBody = new TextDecoder().decode(body);
        return new Response(body.byteLength ? body : null, { status: response.status, statusText: response.statusText, headers: response.headers });
      } catch (error) {
        // Aborted by the SDK's timer: an AbortError the SDK recognises as a timeout in any realm
        // (fetch's own DOMException is not an `Error` of the realm Jest runs the tests in).
        if (init?.signal?.aborted) throw Object.assign(new Error('the request timed out'), { name: 'AbortError' });
        throw error;
      }
    },
  };
  return record;
}

export class OpenAiChatModel implements ChatModel {
  readonly model: string;
  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly client: OpenAI;

  constructor(options: OpenAiChatModelOptions) {
    this.model = options.model;
    const baseURL = `${options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1`;
    this.url = `${baseURL}/chat/completions`;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.client = new OpenAI({
      baseURL,
      // The SDK insists on a key; local servers need none, so a placeholder, and its header is dropped below.
      apiKey: options.apiKey || 'none',
      defaultHeaders: options.apiKey ? {} : { Authorization: null },
      // Only what is configured here, not OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment.
      organization: null,
      project: null,
      timeout: this.timeoutMs,
      maxRetries: options.maxRetries ?? 2,
    });
  }

  async complete(messages: ChatMessage[], options: { temperature?: number; json?: boolean } = {}): Promise<string> {
    const transport = bufferingFetch();
    let reply: unknown;
    try {
      reply = await this.client.withOptions({ fetch: transport.fetch }).chat.completions.create({
        model: this.model,
        messages,
        temperature: options.temperature ?? 0,
        ...(options.json ? { response_format: { type: 'json_object' as const } } : {}),
      });
    } catch (error) {
      throw this.failure(error, transport.errorBody);
    }
    // The SDK hands over a non-JSON body as a string.
    if (typeof reply === 'string') throw new LlmBadResponseError('the response body is not JSON');
    const parsed = replySchema.safeParse(reply);
    if (!parsed.success) throw new LlmBadResponseError('no choices[0].message.content string');
    return parsed.data.choices[0].message.content;
  }

  /** The SDK's error (after its retries) as one of ours; anything else unchanged. */
  private failure(error: unknown, errorBody: string): unknown {
    if (error instanceof OpenAI.APIConnectionTimeoutError) return new LlmTimeoutError(this.url, this.timeoutMs);
    if (error instanceof OpenAI.APIConnectionError) {
      const cause = error.cause as { message?: string; cause?: { code?: string; message?: string } } | undefined;
      return new LlmUnreachableError(this.url, cause?.cause?.code ?? cause?.cause?.message ?? cause?.message ?? error.message);
    }
    if (error instanceof OpenAI.APIError && error.status !== undefined) return new LlmServiceError(error.status, errorBody);
    // A 2xx body declared JSON that is not.
    if ((error as Error | undefined)?.name === 'SyntaxError') return new LlmBadResponseError('the response body is not JSON');
    return error;
  }
}
