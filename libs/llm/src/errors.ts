/**
 * Errors of the language-model adapter, typed like the ledger's (the HTTP layer maps their codes).
 * The adapter maps the `openai` SDK's errors onto these, after the SDK's own retries.
 */
import { LedgerError } from '@factledger/domain';

/** The service answered with an error status (a transient one: after the retries). */
export class LlmServiceError extends LedgerError {
  readonly code = 'llm_service_error';
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`the language model service answered ${status}: ${body.slice(0, 300)}`);
  }
}

/** The service could not be reached (connection refused, DNS, TLS), after the retries. */
export class LlmUnreachableError extends LedgerError {
  readonly code = 'llm_service_unreachable';
  constructor(
    readonly url: string,
    reason: string,
  ) {
    super(`cannot reach the language model service at ${url}: ${reason}`);
  }
}

/** No answer within the timeout, on every attempt. */
export class LlmTimeoutError extends LedgerError {
  readonly code = 'llm_timeout';
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
  ) {
    super(`the language model service at ${url} did not answer within ${timeoutMs} ms`);
  }
}

/** A 2xx answer that is not a usable chat completion, or content the caller could not use. */
export class LlmBadResponseError extends LedgerError {
  readonly code = 'llm_bad_response';
  constructor(reason: string) {
    super(`the language model's answer could not be used: ${reason}`);
  }
}

/** A model-backed feature was asked for, and no language model is configured. */
export class LlmNotConfiguredError extends LedgerError {
  readonly code = 'llm_not_configured';
  constructor(feature: string) {
    super(`${feature} needs a language model: set FACTLEDGER_LLM_URL and FACTLEDGER_LLM_MODEL (an OpenAI-compatible chat service)`);
  }
}
