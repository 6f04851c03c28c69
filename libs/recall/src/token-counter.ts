/**
 * Counts tokens with a real BPE tokenizer: o200k_base, the encoding of current OpenAI models, from
 * `gpt-tokenizer` (ranks bundled with the package, so it works offline). Other models' tokenizers
 * differ by a few percent; the budget is checked against this one. It gives the same tokens as
 * the reference `js-tiktoken` (which factledger used before) at about a quarter of the time, and
 * keeps a bounded cache of the word pieces it has merged, so look-alike memories cost little.
 */
import { countTokens } from 'gpt-tokenizer/cjs/encoding/o200k_base';

export interface TokenCounter {
  readonly name: string;
  count(text: string): number;
}

/** Memory text is data: a special token's spelling in it ("<|endoftext|>") is counted as plain text. */
const PLAIN = { disallowedSpecial: new Set<string>() };

export class O200kTokenCounter implements TokenCounter {
  readonly name = 'o200k_base';
  count(text: string): number {
    return countTokens(text, PLAIN);
  }
}
