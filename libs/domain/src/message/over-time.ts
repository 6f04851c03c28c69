/**
 * Whether a question asks for a value over time ("every X I've owned", "oldest first", "what did
 * we use before that", "지금까지 바뀐 순서대로"), pure. Such a question is answered by the chain of
 * values a memory went through, not by the one that holds now: recall then brings along, for each
 * memory it shows, the versions that memory replaced (recall.ts). A question of what holds now
 * ("What's our CI runner?") asks none of that, and neither does a question of how long or which
 * came first (turn-parts.ts weighs those).
 *
 * Cues, not a parse: a cue that fires for a question that only looked back costs a few lines of
 * the budget; a cue missed costs the answer. So a cue is kept wherever looking back is what it
 * means, and left out where the word is as often about something else ("before the meeting",
 * "first step", "in order", "get used to").
 */
import { en, ko } from '../language';

const EN_CUES = en.overTimeCues;
const KO_CUES = ko.overTimeCues;

/**
 * The words by which a question asks for a value over time (the first cue found, as written), or
 * null when it asks for what holds now. English and Korean cues are both read: a question in one
 * may quote a name in the other.
 */
export function overTimeCue(question: string): string | null {
  for (const cue of /[\uac00-\ud7a3]/u.test(question) ? [...KO_CUES, ...EN_CUES] : EN_CUES) {
    const m = cue.exec(question);
    if (m) return m[0].trim() || m[0];
  }
  return null;
}

/** Whether a question asks for a value over time (see `overTimeCue`). */
export function asksOverTime(question: string): boolean {
  return overTimeCue(question) !== null;
}
