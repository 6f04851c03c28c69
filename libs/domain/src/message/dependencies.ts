/**
 * Memories that hang on memories, as a chat says them, pure (R32):
 *
 * - **A rule for later** ("if the team lead changes, the weekly digest will go to Lars"; "once
 *   the landlord changes, the rent will be 900"; "팀장이 바뀌면 보고서는 라스가 받게 될 거야"): a
 *   premise (what must change: its words) and a consequence (a frame and the value it takes). A
 *   rule is never a value: it replaces nothing when it is said, and applies when its premise changes.
 *   A maybe ("we could switch …") is no rule: only what *will* follow is one.
 * - **A dependency** ("Omar assigned it; if the team lead changes, this would change", "… a new
 *   team lead would pick again", "on Omar's say-so", "while Omar is team lead"): what the statement
 *   hangs on, as words (a role, or a person who holds one). When that changes, the statement is no
 *   longer confirmed.
 *
 * Which memory a premise or a dependency names is the ledger's to find (the speaker's current
 * memory that says those words); this file only reads the sentence.
 */
import { endingPattern, ko, oneOf } from '../language';
import { stem } from './resolution';
import type { Language } from './triage';

export interface RuleForLater {
  /** The premise as written ("the team lead"), and its words as stems, which the changed memory must all have. */
  premise: string;
  premiseWords: string[];
  /** The consequence: what takes a value ("the weekly digest"), its words as stems, and the value ("Lars Eriksen"). */
  frame: string;
  frameWords: string[];
  value: string;
  /** "whenever …": it applies each time, not once. */
  whenever: boolean;
}

export interface Dependency {
  /** What the statement hangs on, as written: a role ("team lead") or a person ("Omar Haddad"). */
  on: string;
  onWords: string[];
  /** The cue that said so. */
  cue: string;
}

const FUNCTION_WORDS = new Set([
  'the',
  'a',
  'an',
  'our',
  'my',
  'your',
  'their',
  'his',
  'her',
  'its',
  'this',
  'that',
  'of',
  'for',
  'to',
  'in',
  'on',
  'we',
  'us',
  'i',
  'me',
  'new',
  'current',
  'whoever',
  'who',
  '우리',
  '내',
  '제',
  '나의',
  '저의',
]);
const { particles: P } = ko;
const KO_PARTICLE = endingPattern([...P.topic, ...P.subject, ...P.object, ...P.possessive, ...P.also, ...P.dative, ...P.direction]);

/** A phrase's words as stems, function words and Korean particles left out. */
export function phraseWords(phrase: string): string[] {
  return [...phrase.toLowerCase().matchAll(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu)]
    .map((m) => m[0].replace(KO_PARTICLE, ''))
    .filter((w) => w.length > 1 && !FUNCTION_WORDS.has(w))
    .map(stem);
}

const EN_CHANGES = String.raw`(?:changes?(?:\s+hands)?|changed|(?:is|be|gets?)\s+(?:ever\s+)?replaced|is someone else|leaves?|quits?|retires?|steps? down|moves? on|switch(?:es)?|is different|(?:is|be) reassigned)`;
const EN_CONDITION = String.raw`^(?:and\s+|also\s+|just so you know,?\s+|note that\s+)?(if|when|once|whenever|should|in case|every time|each time|after|as soon as|the moment|if and when)\s+(?:ever\s+)?`;
/** "if X changes, …" */
const EN_RULE = new RegExp(String.raw`${EN_CONDITION}(.+?)\s+${EN_CHANGES}\b[^,;:—-]*[,;:—-]+\s*(?:then\s+)?(.+?)[.!]*$`, 'i');
/** "when we get a new X, …", "once there is a new X, …", "if a new X comes in, …" */
const EN_NEW_ONE = new RegExp(
  String.raw`${EN_CONDITION}(?:(?:we|you|they|i)\s+(?:ever\s+)?(?:get|have|hire|find|appoint|pick|bring in)|there(?:'s|\s+is|\s+will be)|a)\s+(?:a\s+|an\s+)?(?:new|different)\s+(.+?)(?:\s+(?:comes in|arrives|starts|takes over|is hired|is appointed))?\s*[,;:—-]+\s*(?:then\s+)?(.+?)[.!]*$`,
  'i',
);
/** "if there is a change of X, …", "after a change in X, …" */
const EN_CHANGE_OF = new RegExp(String.raw`${EN_CONDITION}(?:there(?:'s|\s+is|\s+will be)\s+)?(?:a|any)\s+change\s+(?:of|in)\s+(.+?)\s*[,;:—-]+\s*(?:then\s+)?(.+?)[.!]*$`, 'i');
/** What follows: "X will be Y", "X would go to Y", "X is going to be Y", "X becomes Y". */
const EN_CONSEQUENCE =
  /^(.+?)\s+(?:(?:will|would|shall|should|is going to|are going to)\s+(?:then\s+)?(?:be|become|go to|switch to|move to|change to|fall to|pass to|be handled by|be done by|be owned by|go over to|be assigned to|be handed to|be given to)|becomes|goes to|go to|switches to|passes to|pass to|moves to|move to|falls to)\s+(.+)$/i;
/** The value first: "Priya Nair will take over the weekly report", "Sam will handle the on-call". */
const EN_TAKES_OVER = /^([\p{Lu}][\p{L}'’.-]*(?:\s+[\p{Lu}][\p{L}'’.-]*){0,3})\s+(?:will|would|shall|should|is going to)\s+(?:take over|handle|own|run|take)\s+(.+)$/u;
/** "we will make Y the X", "we'll switch the X to Y". */
const EN_WE_WILL = /^(?:we|i)\s*(?:'ll|\s+will|\s+would|\s+shall)\s+(?:switch|change|move|set)\s+(.+?)\s+to\s+(.+)$/i;

const KO_RULE = new RegExp(String.raw`^(.+?)(?:${oneOf(P.subject, P.topic)})?\s*바뀌면\s*,?\s*(.+?)[.!]*$`, 'u');
/** "보고서는 라스가 받게 될 거야", "담당자는 민지가 될 거야", "X는 Y로 바뀔 거야". */
const KO_CONSEQUENCE = new RegExp(
  String.raw`^(.+?)(?:${oneOf(P.topic, P.subject)})\s+(.+?)(?:${oneOf(P.subject, P.direction, P.dative)})?\s*(?:될\s*거야|될\s*거예요|될\s*겁니다|바뀔\s*거야|바뀔\s*거예요|맡게\s*될\s*거야|맡을\s*거야|받게\s*될\s*거야|받을\s*거야|갈\s*거야|갈\s*거예요|갈\s*겁니다|가게\s*될\s*거야|넘어갈\s*거야)$`,
  'u',
);

/** The rule for later a sentence states, or null. */
export function ruleOf(text: string, language: Language): RuleForLater | null {
  if (language === 'ko') {
    const m = text.trim().match(KO_RULE);
    const c = m?.[2]!.match(KO_CONSEQUENCE);
    if (!m || !c) return null;
    return rule(m[1]!, c[1]!, c[2]!, /마다|때마다/.test(text));
  }
  const m = text.trim().match(EN_CHANGE_OF) ?? text.trim().match(EN_RULE) ?? text.trim().match(EN_NEW_ONE);
  if (!m) return null;
  const consequence = m[3]!.match(EN_CONSEQUENCE);
  const weWill = consequence ? null : m[3]!.match(EN_WE_WILL);
  const takesOver = consequence || weWill ? null : m[3]!.match(EN_TAKES_OVER);
  if (!consequence && !weWill && !takesOver) return null;
  const [frame, value] = consequence ? [consequence[1]!, consequence[2]!] : weWill ? [weWill[1]!, weWill[2]!] : [takesOver![2]!, takesOver![1]!];
  return rule(m[2]!, frame, value, /^(?:whenever|every time|each time)$/i.test(m[1]!));
}

function rule(premise: string, frame: string, value: string, whenever: boolean): RuleForLater | null {
  const cleanValue = value
    .replace(/\s*(?:instead|then|from then on|again)\s*$/i, '')
    .replace(/[.!?。]+$/u, '')
    .trim();
  const [premiseWords, frameWords] = [phraseWords(premise), phraseWords(frame)];
  if (premiseWords.length === 0 || frameWords.length === 0 || !cleanValue) return null;
  return { premise: premise.trim(), premiseWords, frame: frame.replace(/^(?:the|our|my)\s+/i, '').trim(), frameWords, value: cleanValue, whenever };
}

/** "if the team lead changes, this (assignment) would change", "a new team lead would pick again", "on Omar's say-so", "while Omar is team lead". */
const EN_DEPENDS: [RegExp, number][] = [
  [
    /\b(?:if|when|once|should)\s+(.+?)\s+(?:changes?|changed|leaves|steps down|is replaced)\b[^,;.]*,?\s*(?:this|that|it|the assignment|this assignment|that assignment|the choice|this choice|the decision|this decision)\s+(?:would|will|might|could|may)\s+(?:change|be revisited|be reconsidered|be picked again|need(?:s)? to change)/i,
    1,
  ],
  [/\ba\s+new\s+(.+?)\s+(?:would|will|might|could|may)\s+(?:pick|choose|decide|assign|appoint|name)\s+(?:again|someone else|anew|afresh)/i, 1],
  [/\b(?:another|the next)\s+(.+?)\s+(?:would|will|might|could|may)\s+(?:pick|choose|decide|assign|appoint)\s+(?:again|someone else|differently)/i, 1],
  [/\bon\s+([\p{Lu}][\p{L}'-]*(?:\s+[\p{Lu}][\p{L}'-]*)?)['’]s\s+say-?so\b/iu, 1],
  [/\b(?:while|as long as)\s+([\p{Lu}][\p{L}'-]*(?:\s+[\p{Lu}][\p{L}'-]*)?)\s+(?:is|stays|remains)\s+(?:the\s+|our\s+)?([\p{L} -]+?)(?:[,.;]|$)/iu, 2],
  [/\b(?:this|that|it)\s+depends\s+on\s+(.+?)(?:[,.;]|$)/i, 1],
];
const KO_DEPENDS: [RegExp, number][] = [
  [new RegExp(String.raw`(\S+?)(?:${oneOf(P.subject, P.topic)})?\s*바뀌면\s*(?:이것도|이건|이|그것도|그건|그)?\s*(?:바뀔|달라질|다시\s*정해질)`, 'u'), 1],
  [new RegExp(String.raw`새\s*(\S+?)(?:${oneOf(P.subject)})\s*(?:다시|새로)\s*(?:정할|고를|뽑을)`, 'u'), 1],
];

/** What a statement says it hangs on, or null. */
export function dependencyOf(text: string, language: Language): Dependency | null {
  for (const [pattern, group] of language === 'ko' ? KO_DEPENDS : EN_DEPENDS) {
    const m = text.match(pattern);
    if (!m) continue;
    const on = m[group]!.replace(/^(?:the|our|my)\s+/i, '').trim();
    const onWords = phraseWords(on);
    if (onWords.length > 0) return { on, onWords, cue: m[0].trim() };
  }
  return null;
}
