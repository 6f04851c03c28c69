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

/** A condition, a maybe, a plan or hearsay: nothing it says holds yet. */
export function isHypothetical(text: string, language: Language): boolean {
  return (language === 'ko' ? KO_HYPOTHETICAL : EN_HYPOTHETICAL).test(text);
}
