/**
 * Forgetting asked for in a chat, pure: whether a sentence asks the memory to let something go
 * ("please delete that from your memory", "forget what I said about my old address", "don't keep
 * my phone number", "내 주소는 잊어줘", "그거 지워줘", "기억에서 지워"), and what: what was just said
 * (`that`, `this`, `it`), or a thing named (words, or a value as written). A fix ("scratch
 * that", fixes.ts) corrects and is no request; a question ("did you forget my address?") asks
 * nothing; a plan or a condition ("if I move, forget my address") holds nothing yet.
 *
 * Also the judgements the ingestor makes on the memories it finds (message-ingestor.ts): which
 * are about a named thing and how each names it, which say the same as a statement, which hold
 * a value, and which of several is meant — or that nothing tells them apart.
 */
import { en, endingPattern, ko, oneOf } from '../language';
import { fixOf } from './fixes';
import { isHypothetical } from './mood';
import { analyzeStatement, isContentWord, stem } from './resolution';
import type { Language, Sentence } from './triage';

/** What a request names: what was just said, or a thing (its words, or a value as written). */
export type ForgetTarget = { kind: 'said' } | { kind: 'named'; thing: string };

export interface ForgetRequest {
  /** The words that ask ("delete that from your memory", "don't keep", "잊어줘"). */
  cue: string;
  targets: ForgetTarget[];
  /** What the same sentence said before asking ("My PIN is 1234, please forget that"): what its `that` names first. */
  before: string | null;
}

// ---- English -----------------------------------------------------------------------------------

/** Fillers before a request ("ok,", "also", "oh and"). */
const EN_LEAD = /^(?:(?:ok(?:ay)?|oh|so|and|also|actually|well|hey|btw|by the way|on second thought|one more thing|just|now|then)\b[,:]?\s+)+/i;
/** A request's polite frame: "could you", "I'd like you to", "please". A question only asks when it has none of these. */
const EN_POLITE =
  /^(?:(?:can|could|would|will)\s+you\s+|you\s+(?:can|may)\s+(?:now\s+|safely\s+)?|feel\s+free\s+to\s+|go\s+ahead\s+and\s+|i(?:'d| would)\s+like\s+you\s+to\s+|i\s+(?:want|need)\s+you\s+to\s+|make sure (?:you|to)\s+|be sure to\s+|please\s+|kindly\s+|just\s+)+/i;
/** What follows a request without naming anything ("…, please", "for good"). */
const EN_TRAIL = new RegExp(String.raw`(?:[\s,]+(?:${en.forgetting.trailing.join('|')}|ok(?:ay)?))+$`, 'i');
/** The memory named: "your memory", "your notes"; not "the database" or "the notes" (a task's, or a meeting's). */
const EN_MEMORY = String.raw`(?:(?:your|the)\s+(?:memory|memories)|your\s+(?:mind|notes|records|brain|knowledge(?:\s+base)?))`;

/** "forget X", "forget about X". */
const EN_FORGET = /^(forget)\s+(?:about\s+)?(.+)$/i;
/** "delete X from your memory", "take X out of your notes": without the memory named, "delete that" is as often about code or a file. */
const EN_REMOVE = new RegExp(String.raw`^((?:delete|erase|remove|wipe|purge|clear|scrub|drop|take))\s+(.+?)\s+(?:from|out of|off)\s+${EN_MEMORY}$`, 'i');
/** "wipe your memory of X". */
const EN_WIPE_OF = new RegExp(String.raw`^((?:wipe|clear|purge|scrub)\s+${EN_MEMORY}\s+of)\s+(.+)$`, 'i');
/** Verbs of saving that are as often about a file or a recording: a request only with the memory named ("don't store it in your memory"). */
const EN_STORING = String.raw`stor(?:e|ing)|sav(?:e|ing)|record(?:ing)?|track(?:ing)?`;
/** "don't keep X", "stop remembering X", "no need to store X in your memory". */
const EN_KEEP_NOT = new RegExp(
  String.raw`^((?:do\s+not|don't|dont|no need to|there(?:'s| is) no need to|you (?:don't|do not) need to|stop)\s+` +
    String.raw`(?:keep(?:ing)? track of|keep(?:ing)?|remember(?:ing)?|(${EN_STORING})|retain(?:ing)?|hold(?:ing)? on ?to|hang(?:ing)? on ?to|memori[sz](?:e|ing)))` +
    String.raw`\s+(.+?)(?:\s+(?:in|from)\s+${EN_MEMORY})?$`,
  'i',
);

/** What was just said: "that", "it", "what I just said", "I said that". */
const EN_SAID =
  /^(?:that|this|it|that one|this one|those|these|(?:my|the) (?:last|previous) (?:message|thing i (?:said|told you|sent|wrote))|that last (?:one|bit|part|message)|the last (?:thing|message|bit) i (?:said|told you|sent|wrote)|(?:what|everything) i (?:just )?(?:said|told you|mentioned|wrote|shared|typed|sent)|i (?:just |ever )?(?:said|told you|mentioned|wrote) (?:that|this|it)|(?:that|this|it) i (?:just )?(?:said|told you|mentioned|wrote))$/i;
/** "(everything) (that) I told you about X", "what you know about X", "I mentioned X": X. */
const EN_ABOUT = [
  /^(?:everything\s+|all\s+|anything\s+)?(?:(?:that|what)\s+)?i(?:'ve|\s+have)?\s+(?:ever\s+|just\s+)?(?:said|told you|mentioned|shared|wrote|gave you|sent)(?:\s+(?:to\s+)?you)?\s+(?:about|regarding|concerning|on)\s+(.+)$/i,
  /^(?:everything|all|what|anything)\s+you\s+(?:know|have|remember|stored|kept)\s+(?:about|on|regarding)\s+(.+)$/i,
  /^(?:that\s+)?i\s+(?:ever\s+)?(?:mentioned|told you about|brought up)\s+(.+)$/i,
];
/** "Forget it", "forget about it": never mind, not a request. */
const EN_NEVER_MIND = /^(?:it|it all|all about it)$/i;
/** Everything at once: a chat never erases a whole memory (that is the API's, with an admin key). */
const EN_EVERYTHING = /^(?:everything|all|all of (?:it|that|this)|anything|everything about me|all my data|all of my data|me)$/i;
/** Objects that are a person or a clause, not a thing said: "don't keep me waiting", "forget to call". */
const EN_NOT_A_THING = /^(?:me|us|him|her|them|you|yourself|myself|to|going|up|on|in|quiet|calm|waiting|it\s+(?:up|down|on|off|going|simple|short))\b/i;

/** A thing named loosely ("the details") is as often waved away as asked to be forgotten: it must be the speaker's ("my …"), a value, or said to be in memory. */
const EN_OWN = /^(?:my|our|mine|ours)\b/i;
/** Or a thing named by two or three words after "the" ("the gate code", "the supplier discount code"), none of them vague ("the whole thing", "the other details"). */
const EN_DEFINITE_THING =
  /^(?:the|that|this)\s+(?!(?:whole|entire|other|rest|last|first|same|next|old|new)\b)[\p{L}\p{N}'-]+(?:\s+[\p{L}\p{N}'-]+){1,2}$(?<!\b(?:thing|things|stuff|details?|part|parts|bit|bits|idea|ideas|plan|plans|matter|issue|story|conversation|discussion|topic|question|questions))/iu;
const EN_IN_MEMORY = new RegExp(String.raw`\s(?:in|from|out of|off|of)\s+${EN_MEMORY}$|^(?:wipe|clear|purge|scrub)\s+${EN_MEMORY}\s+of\s`, 'i');

function englishClause(clause: string, asked: boolean): { cue: string; object: string; remembered: boolean } | null {
  let c = clause.replace(/[’‘]/gu, "'").replace(EN_LEAD, '');
  const polite = c.match(EN_POLITE)?.[0] ?? '';
  c = c.slice(polite.length);
  c = c
    .replace(/[\s.!?]+$/u, '')
    .replace(EN_TRAIL, '')
    .replace(/[\s.!?,]+$/u, '')
    .trim();
  // A question asks to forget only in a request's frame: "could you forget that?", not "did you forget that?".
  if (asked && !/(?:can|could|would|will)\s+you/i.test(polite)) return null;
  for (const pattern of [EN_FORGET, EN_REMOVE, EN_WIPE_OF, EN_KEEP_NOT]) {
    const m = c.match(pattern);
    if (!m) continue;
    // "Would you…", "could you…" are no condition; the clause after them must say none.
    if (isHypothetical(c, 'en')) return null;
    const object = (pattern === EN_KEEP_NOT ? m[3]! : m[2]!).trim();
    if (pattern === EN_FORGET && EN_NEVER_MIND.test(object)) return null;
    const remembered = EN_IN_MEMORY.test(c);
    if (pattern === EN_KEEP_NOT && m[2] && !remembered) return null;
    return { cue: `${polite}${m[1]!}`.trim(), object, remembered };
  }
  return null;
}

function englishTarget(object: string, remembered: boolean): ForgetTarget | null {
  const o = object
    .replace(/^about\s+/i, '')
    .replace(/[\s.!?,]+$/u, '')
    .trim();
  if (!o || EN_EVERYTHING.test(o)) return null;
  if (EN_SAID.test(o)) return { kind: 'said' };
  for (const about of EN_ABOUT) {
    const m = o.match(about);
    if (m) return thingTarget(m[1]!);
  }
  if (EN_NOT_A_THING.test(o)) return null;
  if (!remembered && !EN_OWN.test(o) && !(distinctiveValues(o).length > 0 && !/\s/u.test(o)) && !EN_DEFINITE_THING.test(o)) return null;
  return thingTarget(o);
}

// ---- Korean ------------------------------------------------------------------------------------

/** The request's verb at a clause's end: "잊어줘", "지워 주세요", "삭제해줘", "기억하지 마", "빼 줘". */
const KO_REQUEST =
  /(잊어\s*(?:버려\s*(?:줘|주세요)?|버리세요|줘|주세요|줄래(?:요)?|주라|줄\s*수\s*있어(?:요)?)?|잊으세요|잊어라|지워\s*(?:버려|줘|주세요|줄래(?:요)?|주라|라|줄\s*수\s*있어(?:요)?)?|지우세요|삭제\s*해?\s*(?:줘|주세요|줄래(?:요)?|버려)|삭제하세요|(?:기억|저장)\s*하지\s*(?:마|마세요|말아\s*(?:줘|주세요)?|말아라)|기억\s*안\s*해도\s*(?:돼|돼요|됩니다)|빼\s*(?:줘|주세요|버려))$/u;
/** "빼 줘" is as often "leave the onions out": a request only with memory named ("기억에서 빼 줘"). */
const KO_LEAVE_OUT = /^빼/u;
/** A request's ending, which still asks as a question ("잊어줄래?"); a bare "잊어?" asks whether. */
const KO_ASKING_ENDING = /(?:줄래(?:요)?|주세요|주라|줄\s*수\s*있어(?:요)?)$/u;
/** Words of the request that name nothing: "제발", "좀", "기억에서". */
const KO_FILLER = new RegExp(String.raw`(?:^|\s)(?:${ko.forgetting.fillers.join('|')}|기억\s*속에서)(?=\s|$)`, 'gu');
/** The particles a thing named may carry ("그거는", "주소를", "그것도"). */
const THING_PARTICLES = [...ko.particles.topic, ...ko.particles.object, ...ko.particles.also].join('|');
const KO_SAID = new RegExp(
  String.raw`^(?:그거|그것|그건|그걸|이거|이것|이건|이걸|저거|그\s*(?:말|얘기|이야기|내용)|(?:방금|아까)?\s*(?:내가\s*)?(?:방금\s*)?(?:한|말한|얘기한)\s*(?:거|것|말|얘기|이야기|내용))(?:${THING_PARTICLES})?$`,
  'u',
);
const KO_ABOUT = new RegExp(
  String.raw`^(.+?)\s*(?:에\s*대해서?|에\s*대한|관련(?:해서|된|한)?)\s*(?:내가\s*)?(?:한|말한|얘기한|알려준|알려\s*준)?\s*(?:거|것|말|얘기|이야기|내용|건|기억)?(?:${THING_PARTICLES})?$`,
  'u',
);
const KO_EVERYTHING = new RegExp(String.raw`^(?:다|전부|모두|모든\s*(?:거|것|기억)|나에\s*대한\s*(?:거|것|모든\s*것))(?:${oneOf(ko.particles.object)})?$`, 'u');
/** One who forgets ("나는 자주 잊어"): a statement about oneself, not a request. */
const KO_SUBJECT = /(?:^|\s)(?:나는|내가|저는|제가|난)(?=\s|$)/u;
const KO_POSSESSIVE = /^(?:내|제|우리|나의|저의)\s/u;
/** "못 잊어" (cannot forget), "안 지워": a statement, not a request. */
const KO_CANNOT = /(?:^|\s)(?:못|안|절대|절대로)$/u;

function koreanClause(clause: string, asked: boolean): { cue: string; object: string; remembered: boolean } | null {
  const c = clause.replace(/[\s.!?~。！？]+$/u, '').trim();
  const m = c.match(KO_REQUEST);
  if (!m) return null;
  if (asked && !KO_ASKING_ENDING.test(m[0])) return null;
  const before = c.slice(0, m.index).trim();
  const object = before.replace(KO_FILLER, ' ').replace(/\s+/gu, ' ').trim();
  // "내가 한 말" names what was said; "나는 자주 잊어" says who forgets.
  const subject = !KO_SAID.test(object) && !KO_ABOUT.test(object) && KO_SUBJECT.test(before);
  if (subject || KO_CANNOT.test(before) || isHypothetical(before, 'ko')) return null;
  const remembered = /기억|메모리|머릿속/u.test(before);
  if (KO_LEAVE_OUT.test(m[0]) && !remembered) return null;
  return { cue: m[0], object, remembered };
}

/** A topic's, a subject's or an object's particle, or "도", at a word's end. */
const KO_MARKED = endingPattern([...ko.particles.topic, ...ko.particles.object, ...ko.particles.subject, ...ko.particles.also]);

function koreanTarget(object: string, remembered: boolean): ForgetTarget | null {
  if (!object || KO_SAID.test(object)) return { kind: 'said' };
  if (KO_EVERYTHING.test(object)) return null;
  const about = object.match(KO_ABOUT);
  if (about) return thingTarget(about[1]!);
  // A thing named loosely ("그 파일 지워줘", "회의는 잊어") is as often a file or a plan waved away: the speaker's, a value, or in memory.
  if (!remembered && !KO_POSSESSIVE.test(object) && !(distinctiveValues(object).length > 0 && !/\s/u.test(object.replace(KO_MARKED, '')))) return null;
  return thingTarget(object.replace(KO_MARKED, ''));
}

// ---- a sentence --------------------------------------------------------------------------------

const CLAUSE_BREAK = /\s*[—–;]\s*|\s+-\s+|,\s+/u;
/** Most words a thing named has: a longer object is a clause, not a name. */
const MAX_THING_WORDS = 8;

const sameTarget = (a: ForgetTarget, b: ForgetTarget): boolean => (a.kind === 'said' ? b.kind === 'said' : b.kind === 'named' && a.thing === b.thing);

function thingTarget(thing: string): ForgetTarget | null {
  const t = thing.replace(/^["'“‘]+|["'”’]+$/gu, '').trim();
  const words = t.split(/\s+/u).filter(Boolean);
  return words.length > 0 && words.length <= MAX_THING_WORDS ? { kind: 'named', thing: t } : null;
}

/** The request to forget a sentence makes, or null: not a request, a fix, a question that only asks, a condition. */
export function forgetRequestOf(sentence: string, language: Language): ForgetRequest | null {
  const text = sentence.replace(/\*[^*]*\*/g, ' ').trim();
  if (!text) return null;
  const asked = /[?？]\s*$/u.test(text);
  const clauses = text.split(CLAUSE_BREAK).filter((c) => c.trim());
  const cues: string[] = [];
  const targets: ForgetTarget[] = [];
  let first = -1;
  clauses.forEach((clause, i) => {
    const asking = language === 'ko' ? koreanClause(clause, asked) : englishClause(clause, asked);
    const target = asking && (language === 'ko' ? koreanTarget(asking.object, asking.remembered) : englishTarget(asking.object, asking.remembered));
    if (!asking || !target) return;
    if (first < 0) first = i;
    cues.push(asking.cue);
    if (!targets.some((t) => sameTarget(t, target))) targets.push(target);
  });
  if (targets.length === 0 || fixOf(text, language)) return null;
  const before = clauses.slice(0, first).join(', ').trim();
  // "If I move, forget my address": asked for a time that has not come.
  if (before && isHypothetical(before, language)) return null;
  return { cue: cues.join('; '), targets, before: before && !/^(?:ok(?:ay)?|oh|so|and|also|please|hey|well)$/i.test(before) ? before : null };
}

/** A message's requests to forget, and what they leave out of its memories. */
export interface ForgettingPlan {
  requests: {
    /** The request's sentence (an index into the triage's sentences). */
    sentence: number;
    request: ForgetRequest;
    /** For `that`: the statements of this message it names (the same sentence's start, or the statement just before); empty: the speaker's latest memory. */
    said: string[];
  }[];
  /** Sentences left out of extraction and of the record: every request, and the statements they name. */
  leftOut: Set<number>;
}

/** The requests to forget among a message's sentences (statements, or questions in a request's frame). */
export function planForgetting(sentences: readonly Sentence[], language: Language): ForgettingPlan {
  const plan: ForgettingPlan = { requests: [], leftOut: new Set() };
  sentences.forEach((s, i) => {
    const request = forgetRequestOf(s.text, language);
    if (!request) return;
    plan.leftOut.add(i);
    const said: string[] = [];
    if (request.targets.some((t) => t.kind === 'said')) {
      if (request.before) said.push(request.before);
      else {
        // The statement just before, unless it is itself a request or a question.
        const j = i - 1;
        if (j >= 0 && sentences[j]!.act === 'statement' && !plan.leftOut.has(j)) {
          said.push(sentences[j]!.text);
          plan.leftOut.add(j);
        }
      }
    }
    plan.requests.push({ sentence: i, request, said });
  });
  return plan;
}

// ---- the memories a request names --------------------------------------------------------------

/** Words before a thing that make it no other thing: "my", "the", "내". */
const DETERMINERS: ReadonlySet<string> = new Set([...en.determiners, ...ko.determiners]);
/** Words of time that a request adds and a memory need not say: "my old address". */
const TIME_QUALIFIERS: ReadonlySet<string> = new Set([...en.timeQualifiers, ...ko.timeQualifiers]);
/** A particle that ties a word to the next ("주소의" aside): a word that carries one names no qualifier. */
const { particles: P } = ko;
const KO_PARTICLE_AFTER = endingPattern([...P.topic, ...P.subject, ...P.object, ...P.place, ...P.placeOfAction, ...P.direction, ...P.with, ...P.also]);
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const HANGUL = /[\uac00-\ud7a3]/u;

/** A value as written: a token with a digit, or letters joined by ".", "@" or "/" (a code, a number, a host, an address). */
export function distinctiveValues(text: string): string[] {
  const out = new Set<string>();
  for (const raw of text.split(/\s+/u)) {
    const token = raw
      .replace(/^[("'“‘[<]+/u, '')
      .replace(/[)"'”’\]>,;:!?]+$/u, '')
      .replace(/\.+$/u, '');
    if (token.length < 4) continue;
    const shaped = /\d/u.test(token) || /[\p{L}\p{N}][.@/][\p{L}\p{N}]/u.test(token);
    // A year or a time of day is said of many things: no value of one.
    if (!shaped || /^(?:1[89]|20)\d\d$/u.test(token) || /^\d{1,2}:\d\d$/u.test(token) || (/^[\d.,]+%?$/u.test(token) && token.replace(/\D/gu, '').length < 4)) continue;
    out.add(token);
  }
  return [...out];
}

/** Whether a text holds a value as a whole token (any case). */
export function holdsValue(text: string, value: string): boolean {
  const v = value.toLowerCase();
  return distinctiveValues(text).some((t) => t.toLowerCase() === v) || new RegExp(`(?:^|[\\s(“"'])${escape(v)}(?=$|[\\s,.;:!?)”"'])`, 'u').test(text.toLowerCase());
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A thing named: its words (stems, without determiners and words of time), or the value it is. */
export function thingOf(thing: string): { words: string[]; value: string | null } {
  const [value] = distinctiveValues(thing);
  if (value && thing.trim().split(/\s+/u).length === 1) return { words: [], value };
  const words: string[] = [];
  for (const m of thing.matchAll(WORD)) {
    const w = m[0].toLowerCase();
    if (DETERMINERS.has(w) || TIME_QUALIFIERS.has(w)) continue;
    if (HANGUL.test(w) ? w.length < 1 : !isContentWord(w)) continue;
    const s = stem(w);
    if (!words.includes(s) && !TIME_QUALIFIERS.has(s)) words.push(s);
  }
  return { words, value: null };
}

/**
 * Whether a memory is about a thing named, and the word it names it with beside the request's
 * own ("home" in "my home address" for "my address"): null when it lacks a word of the thing.
 */
export function namesThing(text: string, thing: { words: string[]; value: string | null }): { qualifier: string | null } | null {
  if (thing.value) return holdsValue(text, thing.value) ? { qualifier: null } : null;
  if (thing.words.length === 0) return null;
  const tokens = [...text.matchAll(WORD)].map((m) => m[0].toLowerCase());
  const stems = tokens.map(stem);
  if (!thing.words.every((w) => stems.includes(w))) return null;
  const at = stems.indexOf(thing.words[0]!);
  const before = at > 0 ? tokens[at - 1]! : null;
  const qualifies =
    before !== null &&
    !DETERMINERS.has(before) &&
    !TIME_QUALIFIERS.has(before) &&
    !thing.words.includes(stem(before)) &&
    !/\d/u.test(before) &&
    (HANGUL.test(before) ? !KO_PARTICLE_AFTER.test(before) : isContentWord(before));
  return { qualifier: qualifies ? stem(before) : null };
}

const normal = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The values of a statement, compared: its distinctive tokens and the values resolution reads in it. */
function valuesOf(text: string, language: Language): Set<string> {
  return new Set([...distinctiveValues(text).map((v) => v.toLowerCase()), ...analyzeStatement(text, language).values.map((v) => v.norm)]);
}

/**
 * Whether an earlier memory says what a statement says: the same text, or its values and the
 * words of its slot ("The door code is 4471." in "The door code is 4471, keep it handy.").
 */
export function saysSame(statement: string, earlier: string, language: Language): boolean {
  if (normal(statement) === normal(earlier)) return true;
  const values = valuesOf(statement, language);
  if (values.size === 0) return false;
  const theirs = valuesOf(earlier, language);
  if (![...values].every((v) => theirs.has(v))) return false;
  const slot = analyzeStatement(statement, language).slot;
  const words = analyzeStatement(earlier, language).words;
  return [...slot].every((w) => words.has(w) || [...theirs].some((v) => v.includes(w)));
}

/** Of the memories about a thing, which one a request means. */
export type ThingChoice = { chosen: string[] } | { ambiguous: string[] } | null;

/**
 * The memory a request names by a thing, of the speaker's memories (newest said first): those
 * that name the thing as the request does (no other word beside it) or, when none does, those of
 * the one name they all share ("office address"); of those the latest, with every one that says
 * the same. Several names ("home address", "office address" for "my address") with nothing to
 * tell them apart: ambiguous. A value named is meant wherever it is held. Null: none is about it.
 */
export function chooseByThing(memories: readonly { memoryId: string; text: string; saidAt: Date }[], thing: string, language: Language): ThingChoice {
  const t = thingOf(thing);
  const about = memories.flatMap((m) => {
    const named = namesThing(m.text, t);
    return named ? [{ ...m, qualifier: named.qualifier }] : [];
  });
  if (about.length === 0) return null;
  if (t.value) return { chosen: about.map((m) => m.memoryId) };
  const plain = about.filter((m) => m.qualifier === null);
  const qualifiers = new Set(about.map((m) => m.qualifier));
  if (plain.length === 0 && qualifiers.size > 1) return { ambiguous: about.map((m) => m.memoryId) };
  const meant = (plain.length > 0 ? plain : about).sort((a, b) => b.saidAt.getTime() - a.saidAt.getTime());
  const latest = meant[0]!;
  // Said together (one message's statements) is one latest.
  const chosen = meant.filter((m) => m.saidAt.getTime() === latest.saidAt.getTime() || saysSame(latest.text, m.text, language));
  return { chosen: chosen.map((m) => m.memoryId) };
}
