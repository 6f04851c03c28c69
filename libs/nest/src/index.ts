/** @factledger/nest — FactLedgerModule and the ledger's CQRS commands and queries for NestJS hosts. */
export * from './ledger.commands';
export * from './fact-ledger.module';
export * from './mcp';
