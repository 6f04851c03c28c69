/** @factledger/recall — context assembly: query hygiene, hybrid retrieval, channels, budget, trace; and the index it reads. */
export * from './query-hygiene';
export * from './fusion';
export * from './context-render';
export * from './token-counter';
export * from './recall-indexer';
export * from './recall';
export * from './recall-query';
export { trigramWords } from './candidates';
export * from './trace-writer';
export * from './errors';
export * from './create-recall';
export * from './recall-tuning';
