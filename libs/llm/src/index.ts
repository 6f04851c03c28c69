/** @factledger/llm — the language-model port and its OpenAI-compatible chat adapter (optional parts only). */
export * from './chat-model.port';
export * from './errors';
export * from './openai-chat-model';
export * from './openai-compatible';
