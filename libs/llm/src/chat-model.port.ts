/**
 * The seam to a language model, for the optional parts of the product (pulling claims out of a
 * free answer, rewriting an answer whose claims failed). Every core path works without one.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatModel {
  readonly model: string;
  /** The assistant's reply. `json`: ask for a JSON object (the caller still validates it). */
  complete(messages: ChatMessage[], options?: { temperature?: number; json?: boolean }): Promise<string>;
}
