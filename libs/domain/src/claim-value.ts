/**
 * What a claim asserts, and whether a memory states it (R16), pure. A claim is supported only by a
 * memory that states its *value*: what the claim says beyond its subject. Sharing the subject's
 * words is not stating ("Notes about the staging database password." states no password; a memory
 * with no number in it states no port number).
 *
 * - **The claim's value**: the typed values of the claim's predicate (emails, numbers, versions,
 *   identifiers, times, dates, names: `analyzeStatement`), and where it has none, the content words
 *   of its predicate, stemmed (`frameStatement`'s predicate: the verb, the copula, or what follows a
 *   Korean topic). A claim without a predicate ("vegetarian", "5 Jungang-ro, Daegu") is a value
 *   whole: all its typed values and content words.
 * - **Stated**: every part of the value is in the memory, normalised — a typed value as the same
 *   tokens or the same normalised value ("60s" and "60 seconds"), a word as the same stem. A fact
 *   states a value in its `value`: its typed values must be there; a word of the claim may also be a
 *   word of the fact's own key or sentence (its subject, relation, text: "allergic" of "allergy:
 *   peanuts"), as long as the claim names the fact's value. Prose states it in its text.
 * - A claim that says the memory's words are not so ("not", "no longer") is not stated by a memory
 *   that says they are, nor the other way round.
 */
import { analyzeStatement, isContentWord, stem, type StatedValue } from './message/resolution';
import { detectLanguage } from './message/triage';
import { frameStatement, languageOf } from './restatement';

export interface ClaimValue {
  claim: string;
  /** The typed values the claim asserts (none when it asserts words). */
  values: StatedValue[];
  /** Stems of the content words it asserts: the predicate's when it has no typed value, every one when the claim is a value whole. */
  words: string[];
  /** The claim says something is not so. */
  negated: boolean;
}

/** A memory as far as stating a claim goes: a fact's value (with its key and sentence), or prose's text. */
export interface StatingMemory {
  value: string | null;
  text: string;
  subject?: string | null;
  relation?: string | null;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const HANGUL = /[\uac00-\ud7a3]/u;

/** A text's tokens as compared: NFC, lower-cased, without the punctuation around them. */
function tokensOf(text: string): string[] {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[’‘]/gu, "'")
    .split(/\s+/u)
    .map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((t) => t !== '');
}

const sameToken = (a: string, b: string): boolean => a === b || stem(a) === stem(b);

/** Whether `part` occurs in `whole` as consecutive tokens. */
function containsTokens(whole: readonly string[], part: readonly string[]): boolean {
  if (part.length === 0 || part.length > whole.length) return false;
  for (let i = 0; i + part.length <= whole.length; i++) if (part.every((t, j) => sameToken(whole[i + j]!, t))) return true;
  return false;
}

const sameStated = (a: StatedValue, b: StatedValue): boolean => a.norm === b.norm && (a.unit ?? '') === (b.unit ?? '');

/** Says something is not so: resolution's cues, and the contractions they miss ("don't", "isn't"). */
const negatedIn = (text: string, statement: { negated: boolean }): boolean => statement.negated || /n['’]t\b|\bcannot\b/iu.test(text);

/** Stems of the words of a text. */
function stemsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(WORD)) out.add(stem(m[0].toLowerCase()));
  return out;
}

/** What a claim asserts beyond its subject. */
export function claimValue(claim: string): ClaimValue {
  const statement = analyzeStatement(claim, detectLanguage(claim));
  const framed = frameStatement(claim, languageOf(claim));
  const predicate = framed && framed.predicate >= 0 ? framed.tokens[framed.predicate]!.start : -1;
  const from = Math.max(predicate, 0);
  // Where each value stands in the predicate (a value of the subject is not asserted).
  const spans: [number, number][] = [];
  const values: StatedValue[] = [];
  for (const v of statement.values) {
    const at = claim.indexOf(v.text, from);
    if (at < 0) continue;
    values.push(v);
    spans.push([at, at + v.text.length]);
  }
  const words: string[] = [];
  for (const m of claim.slice(from).matchAll(WORD)) {
    const start = from + m.index!;
    if (spans.some(([s, e]) => start < e && start + m[0].length > s)) continue;
    const w = m[0].toLowerCase();
    const s = stem(w);
    if (statement.words.has(s) && (HANGUL.test(w) || isContentWord(w)) && !words.includes(s)) words.push(s);
  }
  // A predicate's typed values are its value, however the verb around them is worded; a claim without one is a value whole.
  return { claim, values, words: predicate >= 0 && values.length > 0 ? [] : words, negated: negatedIn(claim, statement) };
}

/** Whether a typed value is in a text: the same tokens, or a value of the same normalised form (a quantity with its unit). */
function valueIn(v: StatedValue, tokens: readonly string[], stated: () => StatedValue[]): boolean {
  if (containsTokens(tokens, tokensOf(v.text)) || stated().some((h) => sameStated(h, v))) return true;
  return !v.unit && containsTokens(tokens, tokensOf(v.norm));
}

function lazy<T>(make: () => T): () => T {
  let made: { value: T } | null = null;
  return () => (made ??= { value: make() }).value;
}

/** Whether a memory states a claim's value (see the file's comment). A claim that asserts nothing is stated by nothing. */
export function statesClaimValue(claim: string | ClaimValue, memory: StatingMemory): boolean {
  const c = typeof claim === 'string' ? claimValue(claim) : claim;
  if (c.values.length === 0 && c.words.length === 0) return false;
  const fact = memory.value !== null && memory.value.trim() !== '';
  const held = fact ? memory.value! : memory.text;
  const sentence = analyzeStatement(memory.text, detectLanguage(memory.text));
  if (c.negated !== negatedIn(memory.text, sentence)) return false;
  const tokens = tokensOf(held);
  const stated = fact ? lazy(() => analyzeStatement(held, detectLanguage(held)).values) : () => sentence.values;
  const stems = stemsOf(held);
  if (!c.values.every((v) => valueIn(v, tokens, stated))) return false;
  if (!fact) return c.words.every((w) => stems.has(w));
  // A fact: the claim's words may be its key's and sentence's, but the claim must name its value.
  const frame = stemsOf([memory.subject ?? '', memory.relation ?? '', memory.text].join(' '));
  if (!c.words.every((w) => stems.has(w) || frame.has(w))) return false;
  const named = c.values.length > 0 || c.words.some((w) => stems.has(w));
  return named || containsTokens(tokensOf(c.claim), tokens);
}
