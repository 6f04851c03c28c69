/** @factledger/ledger — the use cases (commands and queries) and their wiring. */
export * from './ledger';
export * from './ledger.schemas';
export * from './ledger.config';
export * from './create-ledger';
export * from './answers';
export * from './re-review.saga';
export * from './verify-claims';
export * from './answer-revision';
export * from './ingest/admission-policy';
export * from './ingest/message-ingestor';
export * from './ingest/message-triager';
export * from './ingest/message-extractor';
export * from './triage/memory-judge';
export * from './triage/rule-judge';
export * from './triage/llm-judge';
export * from './triage/errors';
export * from './triage/population-triage';
