/**
 * Errors of the embedders, typed so the indexer can tell a retryable outage from a misconfiguration.
 * The OpenAI-compatible embedder maps the `openai` SDK's errors onto these, after the SDK's own retries.
 */
import { LedgerError } from '@factledger/domain';

/** The offline model could not be loaded from its installed package. */
export class EmbeddingModelLoadError extends LedgerError {
  readonly code = 'embedding_model_load_failed';
  constructor(
    readonly model: string,
    readonly reason: string,
  ) {
    super(`could not load the embedding model ${model}: ${reason}; check that its npm packages are installed (npm ci)`);
  }
}

/** The model ran but failed on this batch. */
export class EmbeddingFailedError extends LedgerError {
  readonly code = 'embedding_failed';
  constructor(
    readonly model: string,
    readonly reason: string,
  ) {
    super(`embedding model ${model} failed on a batch: ${reason}`);
  }
}

/** An embedding came back with another length than the embedder is configured for. */
export class EmbeddingDimensionMismatchError extends LedgerError {
  readonly code = 'embedding_dimension_mismatch';
  constructor(
    readonly model: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`model ${model} returned ${actual}-dimensional embeddings, configured for ${expected}; ` + `set the dimensions to what the model produces (or point at the model you meant)`);
  }
}

/** The embedding service answered with an error status (after the retries, where the status was transient: 408, 409, 429, 5xx). */
export class EmbeddingServiceError extends LedgerError {
  readonly code = 'embedding_service_error';
  constructor(
    readonly url: string,
    readonly status: number,
    readonly body: string,
    readonly attempts: number,
  ) {
    super(
      `embedding service ${url} answered HTTP ${status} after ${attempts} attempt(s)` +
        (body ? `: ${body}` : '') +
        (status === 401 || status === 403 ? '; check the API key' : status === 404 ? '; check the base URL and the model name' : ''),
    );
  }
}

/** The embedding service could not be reached at all (connection refused, DNS, TLS), after retries. */
export class EmbeddingServiceUnreachableError extends LedgerError {
  readonly code = 'embedding_service_unreachable';
  constructor(
    readonly url: string,
    readonly reason: string,
    readonly attempts: number,
  ) {
    super(`embedding service ${url} could not be reached after ${attempts} attempt(s): ${reason}; is it running at that URL?`);
  }
}

/** The embedding service did not answer within the timeout, on every attempt. */
export class EmbeddingTimeoutError extends LedgerError {
  readonly code = 'embedding_timeout';
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
  ) {
    super(`embedding service ${url} did not answer within ${timeoutMs} ms; raise the timeout or send smaller batches`);
  }
}

/** The embedding service answered 2xx with something that is not an embeddings response. */
export class EmbeddingResponseError extends LedgerError {
  readonly code = 'embedding_bad_response';
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`embedding service ${url} sent an unusable response: ${reason}; is it OpenAI-compatible (/v1/embeddings)?`);
  }
}
