/** @factledger/store — the event-store port and its PostgreSQL adapter (native and embedded). */
export * from './event-store.port';
export * from './errors';
export * from './copy-rows';
export * from './database';
export * from './schema';
export * from './data-folder-lock';
export * from './migrations';
export * from './postgres-event-store';
export * from './in-memory-event-store';
export * from './backlog';
export * from './statistics';
export * from './subscription';
export * from './api-key-store';
export * from './kurrentdb/open';
export * from './tracing';
export * from './replicas';
