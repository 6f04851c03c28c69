/**
 * Query hygiene (R10), pure: the retrieval query is the latest user message only, without the
 * persona's address terms, split into sub-queries when it asks several things, and reduced to
 * its content words for lexical search.
 */
import { en } from '@factledger/domain';

/** Words that carry no topic in English questions (the stopwords, function words and words of asking); Korean particles stay attached to words and are left to trigrams. */
const STOPWORDS: ReadonlySet<string> = new Set([...en.stopwords, ...en.functionWords, ...en.queryFillerWords]);

export interface HygieneOptions {
  /** Names and terms the user calls the assistant by ("Socrates", "bot"): never searched for. */
  addressTerms?: string[];
}

export interface CleanQuery {
  /** The message as searched: address terms removed, whitespace collapsed. */
  text: string;
  /** One or more sub-queries, each retrieved separately. */
  parts: string[];
  /** Content words for lexical search (lower-cased, stopwords dropped). */
  terms: string[];
  /**
   * The content words likely to single a memory out — with a digit, an identifier's punctuation,
   * a non-Latin letter, or a capital inside a sentence (a name) — searched on their own; common
   * words only narrow a search together.
   */
  distinctive: string[];
  /**
   * Per part, whether it asks in the first person (`speaksInFirstPerson`). A side of a pair the
   * question relates is a clause of that question and speaks as it does: "How many weeks do I have
   * between finishing the transaction features and the final deadline?" asks about the user's own
   * deadline on both sides, though neither side says "I".
   */
  firstPerson: boolean[];
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function cleanQuery(message: string, options: HygieneOptions = {}): CleanQuery {
  let text = message.normalize('NFC');
  for (const term of options.addressTerms ?? []) {
    if (!term.trim()) continue;
    text = text.replace(new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(term.trim())}(?=$|[^\\p{L}\\p{N}])`, 'giu'), '$1');
  }
  text = text
    .replace(/\s+/g, ' ')
    .replace(/^[\s,;:—–-]+/, '')
    .trim();
  const parts = splitIntents(text);
  // The whole question leads its sides (see `splitIntents`); separate questions each speak for themselves.
  const sidesOfOne = parts[0] === text && speaksInFirstPerson(text);
  const firstPerson = parts.map((part) => sidesOfOne || speaksInFirstPerson(part));
  return { text, parts, terms: contentTerms(text), distinctive: distinctiveTerms(text), firstPerson };
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_./:@-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;

export function distinctiveTerms(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    const before = text.slice(0, m.index).trimEnd();
    const sentenceStart = before === '' || /[.!?？]$/u.test(before);
    const marked = /\p{N}|[_./:@-]|[^\p{Script=Latin}\p{N}]/u.test(word) || (!sentenceStart && /^\p{Lu}/u.test(word));
    const lower = word.toLowerCase();
    if (marked && !STOPWORDS.has(lower) && (lower.length > 1 || /\p{N}/u.test(lower))) out.add(lower);
  }
  return [...out];
}

/**
 * Whether full text may miss a distinctive word as written, so that trigrams must look for it
 * whatever full text finds: a letter outside the Latin script (a Korean word carries its particle:
 * "서울에" is not the lexeme "서울").
 */
export const needsTrigrams = (word: string): boolean => /[^\p{Script=Latin}\p{N}_./:@-]/u.test(word);

/**
 * Sentences that each ask something become separate sub-queries ("Where do I live? And which
 * port does the API use?"). A single question stays whole, and when it relates two things (see
 * `relatedPair`) each of them is searched on its own beside it: the memories of one side must not
 * crowd out the other's.
 */
export function splitIntents(text: string): string[] {
  const sentences = text
    .split(/(?<=[?？])\s+/u)
    .map((s) => s.trim())
    .filter(Boolean);
  const questions = sentences.filter((s) => /[?？]$/u.test(s));
  if (questions.length > 1) return questions;
  const pair = relatedPair(text);
  return pair ? [text, ...pair] : [text];
}

/**
 * The two things a question relates, when it relates two: the span or the order of two moments
 * ("How many days passed between when I got the key and when I finished the wireframe?", "Which
 * happened first: the move, or the new job?"), or the difference of two things ("between staging
 * and production"). Each side is a memory of its own to find; null when the question names no
 * such pair, or a side has no content word (a range of numbers, "between 3 and 5").
 */
export function relatedPair(question: string): [string, string] | null {
  const text = question.replace(/[?？.!]+\s*$/u, '').trim();
  // "between when A and when B" splits at the second "when" (A may hold an "and" of its own).
  const between = /\bbetween\s+when\s+(.+?),?\s+and\s+when\s+(.+)$/iu.exec(text) ?? /\bbetween\s+(.+?),?\s+and\s+(.+)$/iu.exec(text);
  const first = /\b(?:first|earlier|later|last)\b[^:,]*[:,]\s*(.+?),?\s+or\s+(.+)$/iu.exec(text);
  const m = between ?? first;
  if (!m) return null;
  const sides = [m[1]!.trim(), m[2]!.trim()] as [string, string];
  return sides.every((side) => contentTerms(side).some((w) => /\p{L}/u.test(w))) ? sides : null;
}

/**
 * Whether the query speaks of its asker in the first person ("Have I …", "my project", "I've").
 * The query is the user's own latest message (R10), so its "I" is the user: what the user said
 * is the first place to look, before what the assistant said back about it. English only; a
 * Korean "제"/"내" is too often another word to tell apart here.
 */
const FIRST_PERSON = /(^|[^\p{L}\p{N}'’])(?:I|I['’](?:m|ve|d|ll)|[Mm]y|[Mm]ine|[Mm]yself)(?=$|[^\p{L}\p{N}'’])/u;
export const speaksInFirstPerson = (query: string): boolean => FIRST_PERSON.test(query);

/** Lower-cased content words: letters, digits and the characters of identifiers, paths and versions. */
export function contentTerms(text: string): string[] {
  const words = text.toLowerCase().match(WORD) ?? [];
  return [...new Set(words.filter((w) => !STOPWORDS.has(w) && (w.length > 1 || /\p{N}/u.test(w))))];
}
