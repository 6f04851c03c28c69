/**
 * What both OpenAI-compatible clients (chat completions here, embeddings in @factledger/embeddings)
 * share on top of the `openai` SDK, and the one file that loads it: the client as this project
 * configures it, a `fetch` that records what the typed errors need, and the SDK's errors read into
 * a failure each adapter maps onto its own typed errors. The SDK is an optional peer of
 * @factledger/core: it is loaded on the first request, so a host that configures no
 * OpenAI-compatible service never needs it installed (OptionalPackageMissingError otherwise). No
 * type of the SDK appears in what this file exports, so the declarations need it neither.
 */
import type OpenAI from 'openai';
import { loadOptionalPackage } from '@factledger/domain';
import type { ChatMessage } from './chat-model.port';

export interface OpenAiCompatibleOptions {
  /** e.g. `http://127.0.0.1:11434` or `https://api.openai.com`; a trailing `/v1` is accepted too. */
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  maxRetries: number;
}

/** Why a request failed, after the SDK's retries. */
export type OpenAiCompatibleFailure =
  | { kind: 'timeout' }
  /** Connection refused, DNS, TLS: as deep as the SDK's error says it (`ECONNREFUSED`…). */
  | { kind: 'unreachable'; reason: string }
  /** An error status; `body` verbatim. */
  | { kind: 'status'; status: number; body: string }
  /** A 2xx body declared JSON that is not. */
  | { kind: 'not-json'; message: string };

/** The reply (the SDK hands a body not declared JSON over as a string), or why there is none; `attempts` counts the SDK's retries too. */
export type OpenAiCompatibleResult = ({ ok: true; reply: unknown } | { ok: false; failure: OpenAiCompatibleFailure }) & { attempts: number };

export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  temperature: number;
  response_format?: { type: 'json_object' };
}

export interface EmbeddingsRequest {
  model: string;
  input: string[];
  encoding_format: 'float';
  dimensions?: number;
}

export interface OpenAiCompatibleClient {
  /** The service's `/v1` base URL. */
  readonly baseURL: string;
  chatCompletion(body: ChatCompletionRequest): Promise<OpenAiCompatibleResult>;
  embeddings(body: EmbeddingsRequest): Promise<OpenAiCompatibleResult>;
}

type Sdk = typeof OpenAI;

/** The SDK, loaded once for the process, on the first request of any client. */
let sdk: Promise<Sdk> | undefined;
const loadSdk = (): Promise<Sdk> =>
  (sdk ??= loadOptionalPackage('openai', 'an OpenAI-compatible service (FACTLEDGER_LLM_URL or FACTLEDGER_EMBEDDINGS_URL)', () => import('openai')).then(
    (module) => module.default,
    (error: unknown) => {
      sdk = undefined; // installed later, found on the next request
      throw error;
    },
  ));

/** A client for an OpenAI-compatible service; nothing is loaded or connected before its first request. */
export function openAiCompatibleClient(options: OpenAiCompatibleOptions): OpenAiCompatibleClient {
  const baseURL = `${options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1`;
  let client: Promise<{ OpenAI: Sdk; client: OpenAI }> | undefined;
  const connected = () =>
    (client ??= loadSdk().then((OpenAI) => ({
      OpenAI,
      client: new OpenAI({
        baseURL,
        // The SDK insists on a key; local servers need none, so a placeholder, and its header is dropped.
        apiKey: options.apiKey || 'none',
        defaultHeaders: options.apiKey ? {} : { Authorization: null },
        // Only what is configured here, not OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment.
        organization: null,
        project: null,
        timeout: options.timeoutMs,
        maxRetries: options.maxRetries,
      }),
    })));
  const request = async (send: (client: OpenAI) => Promise<unknown>): Promise<OpenAiCompatibleResult> => {
    const { OpenAI, client: sdkClient } = await connected();
    const transport = recordingFetch();
    try {
      const reply = await send(sdkClient.withOptions({ fetch: transport.fetch }));
      return { ok: true, reply, attempts: transport.attempts };
    } catch (error) {
      const failure = readFailure(OpenAI, error, transport.errorBody);
      if (!failure) throw error;
      return { ok: false, failure, attempts: transport.attempts };
    }
  };
  return {
    baseURL,
    chatCompletion: (body) => request((c) => c.chat.completions.create(body)),
    embeddings: (body) => request((c) => c.embeddings.create(body)),
  };
}

/** The SDK's error (after its retries) as a failure; undefined for anything else. */
function readFailure(OpenAI: Sdk, error: unknown, errorBody: string): OpenAiCompatibleFailure | undefined {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { kind: 'timeout' };
  if (error instanceof OpenAI.APIConnectionError) return { kind: 'unreachable', reason: connectionFailure(error) };
  if (error instanceof OpenAI.APIError && error.status !== undefined) return { kind: 'status', status: error.status, body: errorBody };
  if ((error as Error | undefined)?.name === 'SyntaxError') return { kind: 'not-json', message: (error as Error).message };
  return undefined;
}

/**
 * A `fetch` for the SDK, one per call: it counts the attempts (the SDK retries through it), reads
 * the whole body before handing the response over, so that the SDK's per-attempt timeout (its
 * timer stops when `fetch` resolves) covers the body too, and keeps an error answer's body
 * verbatim (the SDK keeps only parts of it).
 */
function recordingFetch(): { fetch: typeof fetch; attempts: number; errorBody: string } {
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
function connectionFailure(error: InstanceType<Sdk['APIConnectionError']>): string {
  const cause = error.cause as { message?: string; cause?: { code?: string; message?: string } } | undefined;
  return cause?.cause?.code ?? cause?.cause?.message ?? cause?.message ?? error.message;
}
