/**
 * @factledger/testing — the test doubles, out of the product's libraries: fresh migrated test
 * databases, a local server speaking KurrentDB's gRPC protocol, a scripted OpenAI-compatible chat
 * server, a hashing embedder. For tests, benchmarks and `factledger eval`; no product library
 * depends on it (lint). The event-store contract suite and the spec fixtures use jest's globals and
 * have entry points of their own (@factledger/testing/event-store-contract, …/followed-log).
 */
export * from './test-database';
export * from './kurrentdb/local-kurrentdb';
export * from './scripted-chat-server';
export * from './hashing-embedder';
export * from './standby';
