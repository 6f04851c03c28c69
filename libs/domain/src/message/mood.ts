/**
 * Whether a statement says what is, or only what might be, pure. A condition ("if the lead
 * changes, …", "once we move, …"), a maybe ("might", "could one day", "perhaps"), a plan or a wish
 * ("planning to", "want to", "생각 중이야") or hearsay ("there's talk that", "supposedly") changes
 * nothing that holds now: it never retires an earlier memory, however like it it reads. The cues
 * are the languages' (`moodCues` in ../language).
 */
import { en, LANGUAGES } from '../language';
import type { Language } from './triage';

const cuesOf = (language: Language) => (LANGUAGES[language] ?? en).moodCues;

/**
 * What happened once, on a day ("I skipped Tuesday's standup", "we met Dana last week", "어제
 * 회의를 건너뛰었어"): a verb in the past with a day of its own. An event stays true whatever is
 * said later: a state ("I'm on the release team") or a general claim ("I've never skipped a
 * standup") contradicts it, at most, and never replaces it.
 */
export function tellsAnEvent(text: string, language: Language): boolean {
  const { past, day } = cuesOf(language);
  return past.test(text) && day.test(text);
}

/** A claim of every time ("never", "always", "every", 한 번도): true of a habit, not a change of one value. */
export function generalClaim(text: string, language: Language): boolean {
  return cuesOf(language).general.test(text);
}

/** A condition, a maybe, a plan or hearsay: nothing it says holds yet. */
export function isHypothetical(text: string, language: Language): boolean {
  return cuesOf(language).hypothetical.test(text);
}
