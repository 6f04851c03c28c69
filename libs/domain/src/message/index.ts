export * from './triage';
export * from './extraction';
export * from './admission';
export * from './message.events';
