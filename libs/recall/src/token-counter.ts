/**
 * Counts tokens with a real BPE tokenizer (js-tiktoken, o200k_base: the encoding of current
 * OpenAI models, bundled with the package, so it works offline). Other models' tokenizers
 * differ by a few percent; the budget is checked against this one.
 */
import { getEncoding, type Tiktoken } from 'js-tiktoken';

export interface TokenCounter {
  readonly name: string;
  count(text: string): number;
}

let shared: Tiktoken | null = null;

export class TiktokenCounter implements TokenCounter {
  readonly name = 'o200k_base';
  count(text: string): number {
    shared ??= getEncoding('o200k_base');
    return shared.encode(text).length;
  }
}
