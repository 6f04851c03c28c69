/**
 * Chat completions from any OpenAI-compatible service (`POST {baseUrl}/v1/chat/completions`):
 * OpenAI, Ollama, vLLM, llama.cpp's server. One attempt per call with a timeout; failures are
 * typed errors (the callers' loops decide whether to try again).
 */
import type { ChatMessage, ChatModel } from './chat-model.port';
import { LlmBadResponseError, LlmServiceError, LlmTimeoutError, LlmUnreachableError } from './errors';

export interface OpenAiChatModelOptions {
  /** e.g. `http://127.0.0.1:11434` (Ollama) or `https://api.openai.com`; a trailing `/v1` is accepted too. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Default 60 000. */
  timeoutMs?: number;
}

export class OpenAiChatModel implements ChatModel {
  readonly model: string;
  private readonly url: string;

  constructor(private readonly options: OpenAiChatModelOptions) {
    this.model = options.model;
    this.url = `${options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/chat/completions`;
  }

  async complete(messages: ChatMessage[], options: { temperature?: number; json?: boolean } = {}): Promise<string> {
    const timeoutMs = this.options.timeoutMs ?? 60_000;
    const body = {
      model: this.model,
      messages,
      temperature: options.temperature ?? 0,
      ...(options.json ? { response_format: { type: 'json_object' } } : {}),
    };
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') throw new LlmTimeoutError(this.url, timeoutMs);
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new LlmUnreachableError(this.url, cause?.code ?? cause?.message ?? (error as Error).message);
    }
    const text = await response.text();
    if (!response.ok) throw new LlmServiceError(response.status, text);
    let parsed: { choices?: { message?: { content?: unknown } }[] };
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new LlmBadResponseError('the response body is not JSON');
    }
    const content = parsed.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new LlmBadResponseError('no choices[0].message.content string');
    return content;
  }
}
