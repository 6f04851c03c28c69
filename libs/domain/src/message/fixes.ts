/**
 * Fixes said in plain words, pure: the speaker puts right what they said before ("typo", "I
 * meant", "scratch that", "Tacoma, not Seattle", "잘못 말했어", "서울이 아니라 부산"). A fix is a
 * correction (the value it replaces never held), not an update (the world changed). Read by
 * extraction (a triple said as a fix is asserted as a correction) and resolution (an earlier
 * memory it puts right is corrected).
 */
import { en, ko, LANGUAGES, oneOf } from '../language';
import type { Language } from './triage';

/** A fix: the cue that says so (on its own, or the value put right beside the one it replaces), and that value where it is named. */
export interface Fix {
  cue: string;
  replaced: string | null;
}

/** "…, not X", "… rather than X", "… instead of X" at a clause's end: X is what was wrong. */
const EN_NOT_X = /(?:,\s*not|,?\s+rather than|,?\s+instead of)\s+([^,;!?]+?)\s*[.!?]*$/i;
/** "not X but Y". */
const EN_NOT_X_BUT = /\bnot\s+([^,;!?]+?),?\s+but\s+/i;
/** "X가 아니라 Y", "X이 아니고 Y". */
const { particles: P } = ko;
const KO_NOT_X = new RegExp(String.raw`(\S+?)(?:${oneOf(P.subject)})?\s*아니(?:라|고)\s+`, 'u');

/** The fix a statement says, or null. */
export function fixOf(text: string, language: Language): Fix | null {
  const cue = text.match((LANGUAGES[language] ?? en).changeCues.fix);
  const structure = language === 'ko' ? text.match(KO_NOT_X) : (text.match(EN_NOT_X_BUT) ?? text.match(EN_NOT_X));
  // "not only X but", "instead of waiting": no value replaced by another.
  const replaced = structure && !/^(?:only|just|sure|yet|anymore|any more|really|that|this|so|too|to|[a-z]+ing)\b/i.test(structure[1]!) ? structure[1]!.trim() : null;
  if (cue) return { cue: cue[0], replaced };
  return replaced !== null ? { cue: structure![0].replace(/^[\s,]+|[\s.!?]+$/gu, ''), replaced } : null;
}
