/**
 * What both OpenAI-compatible clients (chat completions here, embeddings in @factledger/embeddings)
 * share on top of the `openai` SDK: the client as this project configures it, a `fetch` that
 * records what the typed errors need, and the reason a connection failed.
 */
import OpenAI from 'openai';

export interface OpenAiCompatibleOptions {
  /** e.g. `http://127.0.0.1:11434` or `https://api.openai.com`; a trailing `/v1` is accepted too. */
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  maxRetries: number;
}

/** The SDK's client for an OpenAI-compatible service, and its `/v1` base URL. */
export function openAiCompatibleClient(options: OpenAiCompatibleOptions): { client: OpenAI; baseURL: string } {
  const baseURL = `${options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1`;
  const client = new OpenAI({
    baseURL,
    // The SDK insists on a key; local servers need none, so a placeholder, and its header is dropped.
    apiKey: options.apiKey || 'none',
    defaultHeaders: options.apiKey ? {} : { Authorization: null },
    // Only what is configured here, not OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment.
    organization: null,
    project: null,
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
  });
  return { client, baseURL };
}

/**
 * A `fetch` for the SDK, one per call: it counts the attempts (the SDK retries through it), reads
 * the whole body before handing the response over, so that the SDK's per-attempt timeout (its
 * timer stops when `fetch` resolves) covers the body too, and keeps an error answer's body
 * verbatim (the SDK keeps only parts of it).
 */
export function recordingFetch(): { fetch: typeof fetch; attempts: number; errorBody: string } {
  const record = {
    attempts: 0,
    errorBody: '',
    fetch: async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      record.attempts++;
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

/** Why a connection failed, as deep as the SDK's error says it (`ECONNREFUSED`, a DNS failure…). */
export function connectionFailure(error: InstanceType<typeof OpenAI.APIConnectionError>): string {
  const cause = error.cause as { message?: string; cause?: { code?: string; message?: string } } | undefined;
  return cause?.cause?.code ?? cause?.cause?.message ?? cause?.message ?? error.message;
}
