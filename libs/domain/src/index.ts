/** @factledger/domain — pure model of the ledger: keys, memories, events, commands, the decider. No I/O. */
export * from './errors';
export * from './input-hygiene';
export * from './access';
export * from './clock';
export * from './keys';
export * from './memory';
export * from './fact.events';
export * from './fact.commands';
export * from './fact.decider';
export * from './answer';
export * from './claim-value';
export * from './erasure';
export * from './message';
export * from './restatement';
export * from './belief';
export * from './iso-time';
