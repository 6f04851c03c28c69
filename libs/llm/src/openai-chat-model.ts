/**
 * Chat completions from any OpenAI-compatible service (`POST {baseUrl}/v1/chat/completions`):
 * OpenAI, Ollama, vLLM, llama.cpp's server. The HTTP is the official `openai` SDK's, so that
 * retries (429, 408, 409 and 5xx answers, failed connections and timeouts, with the SDK's
 * jittered exponential backoff honouring `Retry-After`), timeouts and error types come from a
 * well-kept library rather than a hand-written client. What is left here: the SDK's errors
 * mapped onto the typed ones in `./errors` (after the SDK's retries, a failure is one of them),
 * and a check (zod) of the one part of the answer used, `choices[0].message.content`.
 */
import { z } from 'zod';
import type { ChatMessage, ChatModel } from './chat-model.port';
import { LlmBadResponseError, LlmServiceError, LlmTimeoutError, LlmUnreachableError } from './errors';
import { type OpenAiCompatibleClient, type OpenAiCompatibleFailure, openAiCompatibleClient } from './openai-compatible';

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

export class OpenAiChatModel implements ChatModel {
  readonly model: string;
  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly client: OpenAiCompatibleClient;

  constructor(options: OpenAiChatModelOptions) {
    this.model = options.model;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.client = openAiCompatibleClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, timeoutMs: this.timeoutMs, maxRetries: options.maxRetries ?? 2 });
    this.url = `${this.client.baseURL}/chat/completions`;
  }

  async complete(messages: ChatMessage[], options: { temperature?: number; json?: boolean } = {}): Promise<string> {
    const result = await this.client.chatCompletion({
      model: this.model,
      messages,
      temperature: options.temperature ?? 0,
      ...(options.json ? { response_format: { type: 'json_object' as const } } : {}),
    });
    if (!result.ok) throw this.failure(result.failure);
    // The SDK hands over a non-JSON body as a string.
    if (typeof result.reply === 'string') throw new LlmBadResponseError('the response body is not JSON');
    const parsed = replySchema.safeParse(result.reply);
    if (!parsed.success) throw new LlmBadResponseError('no choices[0].message.content string');
    return parsed.data.choices[0].message.content;
  }

  /** The SDK's failure (after its retries) as one of ours. */
  private failure(failure: OpenAiCompatibleFailure): Error {
    switch (failure.kind) {
      case 'timeout':
        return new LlmTimeoutError(this.url, this.timeoutMs);
      case 'unreachable':
        return new LlmUnreachableError(this.url, failure.reason);
      case 'status':
        return new LlmServiceError(failure.status, failure.body);
      case 'not-json':
        return new LlmBadResponseError('the response body is not JSON');
    }
  }
}
