/** The language home: each language's words in a file of its own, registered here by its code. */
import { en } from './en';
import { ko } from './ko';
import type { LanguageWords } from './words';

export { en } from './en';
export { ko } from './ko';
export { defineLanguage, endingPattern, type LanguageWords, oneOf } from './words';

/** Every language the rules read, by code. A language is added by adding its file and its entry here. */
export const LANGUAGES: Readonly<Record<string, LanguageWords>> = { en, ko };
