export * from './triage';
export * from './extraction';
export * from './admission';
export * from './resolution';
export * from './fixes';
export * from './mood';
export * from './message.events';
export * from './turn-parts';
