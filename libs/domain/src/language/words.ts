/**
 * What a language file provides: the words the rules of triage, extraction, resolution,
 * restatement, admission, forgetting and query hygiene read, one list per concept. Rules are code
 * and stay in their files; a language is data and lives in `en.ts`, `ko.ts`, … (docs/architecture.md,
 * "Adding a language is adding a file").
 */
export interface LanguageWords {
  /** The language's code, as triage names it. */
  code: string;
  /** The one stopword list: words that carry no topic wherever they stand. Purpose-specific additions sit beside it in the file, named by purpose. */
  stopwords: readonly string[];
  /** Words of time that date a statement without being about what it says. */
  timeWords: readonly string[];
  /** Number words and their values ("two", "두"). */
  numberWords: Readonly<Record<string, number>>;
  /** Cue phrases of a change said of a value: an update, a correction, a retraction, an addition, a negation (resolution), a fix (fixes.ts). */
  changeCues: { update: RegExp; correction: RegExp; retraction: RegExp; additive: RegExp; negation: RegExp; fix: RegExp };
  /** Cues of mood: a condition or a maybe, a verb in the past, a day of its own, a claim of every time (mood.ts). */
  moodCues: { hypothetical: RegExp; past: RegExp; day: RegExp; general: RegExp };
  /** The words a question asks for a slot by ("What's my job?"), per slot of resolution's vocabulary. */
  slotQuestionWords: Readonly<Record<string, readonly string[]>>;
  /** People of the speaker's ("my brother", "형"): their facts are theirs. */
  relatives: readonly string[];
}

/** A language file's words, checked against what every language provides (and free to hold more). */
export const defineLanguage = <T extends LanguageWords>(words: T): T => words;

/** A pattern that matches a word ending in one of `endings` (longest first is not needed: anchored at the end, the longest suffix wins). */
export const endingPattern = (endings: readonly string[]): RegExp => new RegExp(`(?:${endings.join('|')})$`, 'u');

/** Alternatives of a pattern from word lists ("은|는|이|가"), in the order given. */
export const oneOf = (...lists: readonly (readonly string[])[]): string => lists.flat().join('|');

/** Words of a space-separated list (a language file's long lists are written as text). */
export const words = (text: string): readonly string[] => text.split(/\s+/u).filter(Boolean);
