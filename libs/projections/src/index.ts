/** @factledger/projections — read models built from the log, their runner, and their queries. */
export * from './projection';
export * from './errors';
export * from './fact-projection';
export * from './postgres-fact-projection';
export * from './projection-runner';
export * from './checkpointed-consumer';
export * from './fact-reader';
export * from './fact-rows';
export * from './answer-projection';
export * from './answer-reader';
export * from './single-flight-drain';
export * from './background-loop';
export * from './leased-worker';
export * from './local-worker';
export * from './replica-routing';
