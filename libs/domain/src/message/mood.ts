/**
 * Whether a statement says what is, or only what might be, pure. A condition ("if the lead
 * changes, …", "once we move, …"), a maybe ("might", "could one day", "perhaps"), a plan or a wish
 * ("planning to", "want to", "생각 중이야") or hearsay ("there's talk that", "supposedly") changes
 * nothing that holds now: it never retires an earlier memory, however like it it reads.
 */
import type { Language } from './triage';

const EN_HYPOTHETICAL =
  /\b(?:if|unless|once|should\s+(?:the|our|my|we|i|he|she|they)|in case|might|may\s+(?:be|have|move|switch|change|get)|could(?:\s+one day)?|would|maybe|perhaps|possibly|potentially|probably|thinking (?:about|of)|considering|plan(?:s|ning)? to|(?:want|wants|wanted|hope|hoping|hopes) to|will\s+(?:probably|likely|maybe)|there(?:'s| is) (?:talk|a rumou?r|a chance)|rumou?red|supposedly|allegedly|(?:is|are) expected to|as long as)\b/i;
/** A verb's "-면" (if) ends its clause: "바뀌면 ", "이사한다면, "; not the noun "라면을". */
const KO_HYPOTHETICAL = /(?:만약|만일|혹시|아마|면(?=[\s,])|지도\s*몰라|수도\s*있|생각\s*중|고민\s*중|계획|예정|하려고|할까|싶어|소문|카더라)/u;

/**
 * What happened once, on a day ("I skipped Tuesday's standup", "we met Dana last week", "어제
 * 회의를 건너뛰었어"): a verb in the past with a day of its own. An event stays true whatever is
 * said later: a state ("I'm on the release team") or a general claim ("I've never skipped a
 * standup") contradicts it, at most, and never replaces it.
 */
const EN_PAST = /\b(?:[a-z]{3,}ed|went|met|saw|got|left|took|made|ran|began|bought|sold|won|lost|gave|came|wrote|drove|flew|ate|drank|heard|kept|held|led|built|sent|spent|taught|thought|brought|caught|found|told|said|paid|skipped|missed|had|did)\b/i;
const EN_DAY = /\b(?:yesterday|last\s+(?:night|week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:'s)?|\d+\s+(?:days?|weeks?|months?|years?)\s+ago|this\s+(?:morning|afternoon|evening)|on\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}|\d{4}-\d{2}-\d{2})\b/i;
const KO_PAST = /(?:았|었|였|했)(?:어|다|지|는데|고)?/u;
const KO_DAY = /(?:어제|그제|지난\s*(?:주|달|해|번)|[월화수목금토일]요일|\d+\s*(?:일|주|달|년)\s*전|오늘\s*아침)/u;

export function tellsAnEvent(text: string, language: Language): boolean {
  return language === 'ko' ? KO_PAST.test(text) && KO_DAY.test(text) : EN_PAST.test(text) && EN_DAY.test(text);
}

/** A claim of every time ("never", "always", "every", 한 번도): true of a habit, not a change of one value. */
const EN_GENERAL = /\b(?:never|always|every\s+(?:time|day|week|morning)|each\s+time|not\s+once|ever)\b/i;
const KO_GENERAL = /(?:한\s*번도|항상|늘|매번|언제나)/u;

export function generalClaim(text: string, language: Language): boolean {
  return (language === 'ko' ? KO_GENERAL : EN_GENERAL).test(text);
}

/** A condition, a maybe, a plan or hearsay: nothing it says holds yet. */
export function isHypothetical(text: string, language: Language): boolean {
  return (language === 'ko' ? KO_HYPOTHETICAL : EN_HYPOTHETICAL).test(text);
}
