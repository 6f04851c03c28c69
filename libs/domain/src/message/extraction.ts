/**
 * Extraction: candidate memories from a message's statements. Triples where a rule recognises
 * a clause (identity and contact facts, places, employers, preferences, "X is set to Y" config
 * facts, Korean "…는 …이야"), otherwise one prose candidate. Rules name the relation from the
 * clause's frame, never from its value, so two sentences that differ only in their value give
 * the same key and supersession works. Rules only take what the speaker states as true now about
 * themselves or a thing: plans ("I might move"), negations ("I don't live in…"), time clauses
 * ("When I moved…") and other people's news ("My friend moved…") stay prose. Prose gets the type
 * labels that the policy's cue words propose; the admission gates decide which label it keeps.
 */
import { en, ko, oneOf } from '../language';
import type { Speaker } from '../memory';
import { fixOf } from './fixes';
import { KO_RULES } from './extraction-ko';
import { ATTRIBUTE_NOUNS, canonicalPlace, canonicalRelation, CORE_RELATIONS, type Persons, plausible, type Rule, type Triple, typeOfRelation } from './relations';
import type { Language, Triage } from './triage';
import { TIME_WORDS, timeOf, validFromOf } from './valid-time';

export { canonicalPlace, canonicalRelation, CORE_RELATIONS, typeOfRelation } from './relations';
export { validFromOf } from './valid-time';

export interface Candidate {
  memoryKind: 'fact' | 'prose';
  subject: string | null;
  relation: string | null;
  value: string | null;
  cardinality: 'one' | 'many' | null;
  /** Proposed types, best first: a triple's rule gives one; cue words may give prose several. */
  labels: string[];
  /** The sentence(s) it came from, verbatim. */
  text: string;
  /** When it became true: the message's time, moved back by a phrase such as "last week". */
  validFrom: Date;
  core: boolean;
  /** The rule that produced it. */
  rule: string;
  /** Said as a fix ("typo", "I meant", "Tacoma, not Seattle": resolution.ts fixOf): the value it replaces never held. */
  correction?: true;
}

export interface ExtractionInput {
  text: string;
  speaker: Speaker;
  at: Date;
  triage: Triage;
  /** Per type, the cue words that make a prose statement a candidate for that type. */
  cues: Record<string, string[]>;
}

// ---- things and their attributes --------------------------------------------------------------

/** People (and pets) of the speaker's: "my friend …" tells about them, not about the speaker. */
const PERSON_NOUN = new RegExp(String.raw`\b(?:${en.personNouns.join('|')})s?$`, 'i');
/** A pronoun in a thing's name means it is not a thing: "the reason my port…", "it". */
const PRONOUN_IN_THING = /(?:^|\s)(?:i|me|my|mine|we|us|our|you|your|he|him|his|she|her|they|them|their|it|this|that|there|everyone|someone|nobody)(?:\s|$)/i;

function splitThing(phrase: string): { subject: string; relation: string } {
  const p = phrase.replace(/^(?:the|our|this|that)\s+/i, '').trim();
  const possessive = p.match(/^(.+?)'s\s+(.+)$/);
  if (possessive) return { subject: possessive[1]!, relation: canonicalRelation(possessive[2]!) };
  const words = p.split(/\s+/);
  const last = words[words.length - 1]!;
  if (words.length > 1 && ATTRIBUTE_NOUNS.has(last.toLowerCase())) return { subject: words.slice(0, -1).join(' '), relation: canonicalRelation(last) };
  return { subject: p, relation: 'is' };
}

/** A named thing ("payment-service", "Minji", "db-01"), which may have a plain "is" relation. */
const NAMED = /[\p{Lu}\p{N}_.-]/u;

/**
 * The subject and relation of a thing's phrase, or null when the phrase is a person or a pronoun.
 * "my email" is the speaker's; "the payment service port" is the service's. A phrase without an
 * attribute noun gets the relation "is": always for `any` (an explicit "is set to"), for a named
 * thing only with `named` ("payment-service is now v2", not "the weather is now…"), never with
 * `attribute`.
 */
function thingOf(phrase: string, who: Persons, plainIs: 'any' | 'named' | 'attribute'): { subject: string; relation: string } | null {
  const p = phrase.trim();
  const mine = p.match(/^(my|your)\s+(.+)$/i);
  if (mine) {
    if (PERSON_NOUN.test(mine[2]!)) return null;
    return { subject: mine[1]!.toLowerCase() === 'my' ? who.self : who.other, relation: canonicalRelation(mine[2]!) };
  }
  const bare = p.replace(/^(?:the|our|this|that)\s+/i, '');
  if (!bare || PRONOUN_IN_THING.test(bare) || PERSON_NOUN.test(bare)) return null;
  const thing = splitThing(bare);
  if (thing.relation === 'is' && (plainIs === 'attribute' || (plainIs === 'named' && !NAMED.test(thing.subject)))) return null;
  return thing;
}

// ---- values -----------------------------------------------------------------------------------

/** Not a value: a pronoun, an infinitive, a clause ("that…", "when…"). */
const PRONOUN_VALUE = /^(?:you|it|that|this|them|him|her|me|us|those|these|myself|yourself|ourselves|to|when|where|what|how|why|if|because|whether)(?![\p{L}\p{N}@.-])/iu;
/** A value that says what is not, or will be: "not 8080", "no longer…", "going to be…", "moving to…". */
const NOT_NOW_VALUE = /^(?:not|no longer|never|going to|gonna|about to|supposed to|planning|hoping)\b|^\w+ing\s+(?:to|in|at|for|from|with|on|into)\b/i;

/** The value as said, without hedges, time phrases, trailing clauses and punctuation; null if it is not a value. */
export function cleanValue(raw: string): string | null {
  const v = raw
    .replace(/^(?:now|still|actually|probably|definitely|really|officially|currently|just)\s+/i, '')
    .replace(/^(?:now|still|actually|probably|definitely|really|officially|currently|just)\s+/i, '')
    .replace(/^(?:now\s+)?(?:set|changed|updated|switched)\s+to\s+/i, '')
    .replace(TIME_WORDS, '')
    .replace(/\s+(?:and|but|so|because|since|which|where|though)(?:\s+.*)?$/i, '')
    .replace(/[,;:]\s.*$/, '')
    .replace(/[\s.,;:!?。！？~…]+$/u, '')
    .replace(/^["'“‘]|["'”’]$/g, '')
    .trim();
  if (!v || v.length > 80 || v.split(/\s+/).length > 8 || PRONOUN_VALUE.test(v) || NOT_NOW_VALUE.test(v)) return null;
  return v;
}

/** Where a place ends: before "with my wife", "from Seoul", "for work", "in March", "since 2019". */
const PLACE_TAIL = new RegExp(String.raw`\s+(?:with|from|for|since|near|because|after|before|until|when|as|in\s+(?:(?:19|20)\d{2}|${[...en.months, ...en.seasons].join('|')}))\b.*$`, 'i');
/** Where an employer ends: as PLACE_TAIL, and before "in Seoul". */
const EMPLOYER_TAIL = /\s+(?:with|from|for|since|because|after|before|until|when|as|in)\b.*$/i;
/** "a new apartment", "my parents' place", "home": somewhere, but not a place to key a home on. */
const NOT_A_PLACE = /^(?:a|an|my|our|his|her|their|your|some|this|that|these|those|here|there|home|the moment)\b/i;
const NOT_AN_EMPLOYER = /^(?:my|our|his|her|their|your|this|that|these|those|here|there|home|the moment)\b/i;
/** What is liked ends before a comparison or an amount: "tea over coffee", "jazz a lot". */
const LIKE_TAIL = /\s+(?:over|more than|rather than|instead of|than|a lot|so much|very much)\b.*$/i;
/** "I prefer tea to coffee". */
const PREFER_TAIL = /\s+(?:to|over|more than|rather than|instead of|than)\b.*$/i;

/** "8080", "3pm", "eu-west-1", "Minji", "db-07.internal": a value, not an adjective ("slow"). */
const VALUE_LIKE = /[\p{N}\p{Lu}@.:/_-]/u;

function placeValue(raw: string, tail = PLACE_TAIL, not = NOT_A_PLACE): string | null {
  const v = cleanValue(raw.replace(TIME_WORDS, '').replace(tail, ''));
  return v && !not.test(v) ? canonicalPlace(v) : null;
}

// ---- rules ------------------------------------------------------------------------------------

/** Openers that do not change what follows: "btw, I moved to…", "Oh well, my email is…", "Please remember that…". */
const LEAD = String.raw`^(?:(?:${en.openers.join('|')}|(?:i\s+)?made\s+a\s+typo|typo|i\s+(?:misspoke|mistyped|misspelled|was wrong|got (?:that|it) wrong)(?:\s+(?:that|it|earlier|before))?|i\s+meant(?:\s+to\s+say)?(?:\s+that)?|(?:(?:can|could|would|will)\s+you\s+|please\s+)*(?:remember|note|keep in mind|make a note)\s+that)[,:!—-]?\s+)*`;
/** The speaker or the one spoken to, as a clause's subject. */
const SUBJECT = String.raw`(i|we|you)`;
const ADVERBS = String.raw`(?:\s+(?:now|still|currently|just|recently|finally|actually|also|officially|already|really))*`;
const BE = String.raw`(?:'m|'re|\s+am|\s+are)`;
const HAVE = String.raw`(?:'ve|\s+have)`;

const enRule = (source: string, flags = 'i'): RegExp => new RegExp(`${LEAD}${source}`, flags);

/** "I moved to Y": a done move. A plan ("I might move", "I'm moving", "I want to move") has no rule. */
const EN_MOVED = enRule(String.raw`${SUBJECT}${HAVE}?${ADVERBS}\s+(?:moved|relocated)(?:\s+(?:back|over|here|house|home))?\s+(?:to|into)\s+(.+)$`);
/** "I live in Y", "I'm living / based in Y", "I've been living in Y"; not "I lived", "I don't live", "I'd live". */
const EN_LIVES = enRule(String.raw`${SUBJECT}(?:${ADVERBS}\s+live|${BE}${ADVERBS}\s+(?:living|based|located|settled)|${HAVE}${ADVERBS}\s+(?:been\s+living|lived))\s+in\s+(.+)$`);
/** "I work at Y", "I'm working for Y", "I started working at Y", "I'm employed by Y". */
const EN_WORKS = enRule(
  String.raw`${SUBJECT}(?:${ADVERBS}\s+work\s+(?:at|for)|${BE}${ADVERBS}\s+working\s+(?:at|for)|${HAVE}${ADVERBS}\s+(?:been\s+working|worked)\s+(?:at|for)|${ADVERBS}\s+(?:started|began)\s+working\s+(?:at|for)|${BE}${ADVERBS}\s+employed\s+(?:at|by))\s+(.+)$`,
);
const EN_WORKS_AS = enRule(String.raw`${SUBJECT}(?:${ADVERBS}\s+work|${BE}${ADVERBS}\s+working)\s+as\s+(?:an?\s+)?(.+)$`);
const EN_CALL_ME = enRule(
  String.raw`(?:(?:you\s+can|please|just)\s+)?(?:call me|i'm called|i am called|people call me|everyone calls me|my friends call me|i go by)\s+(\p{L}[\p{L}'-]*(?:\s+\p{L}[\p{L}'-]*)?)`,
  'iu',
);
/** Capitalised words that follow "call me" without being a name: "Call me tomorrow". */
const NOT_A_NAME = /^(?:tomorrow|today|tonight|later|maybe|when|if|anytime|back|now|please|sometime|soon|whenever|asap|again|crazy|old|a|an|the)$/i;
/** "my X is Y": the relation is X. "has changed to" and "is set to" say the same of now. */
const EN_MY_IS = enRule(String.raw`(my|your)\s+([a-z][a-z' -]{0,40}?)\s+(?:is|are|has changed to|changed to|has become|became)\s+(.+)$`);
/** "my name's Y"; when an "is" follows, the "'s" was a possessive ("my friend's name is…"), for EN_MY_IS. */
const EN_MY_CONTRACTED = enRule(String.raw`(my|your)\s+([a-z][a-z -]{0,40}?)'s\s+(?!.*\b(?:is|are)\b)(.+)$`);
const EN_LIKES = enRule(
  String.raw`${SUBJECT}(?:\s+(?:really|absolutely|also|just|still|truly|totally|kind of|kinda|do|genuinely))*\s+(don't\s+(?:really\s+)?(?:like|enjoy)|do\s+not\s+(?:really\s+)?(?:like|enjoy)|dislike|hate|can't stand|cannot stand|detest|like|love|enjoy|prefer|adore)\s+(.+)$`,
);
const CHANGE_VERB = String.raw`(?:set|changed|updated|switched|bumped|moved|configured|pinned|raised|lowered|increased|decreased|reduced|upgraded|downgraded)`;
/** "The X port is / was / has been set to Y". */
const EN_SET_TO = enRule(String.raw`(.+?)\s+(?:is|are|was|were|has been|have been|got|gets)\s+(?:now\s+)?${CHANGE_VERB}\s+to\s+(.+)$`);
/** "The X port changed to Y", "My email has changed to Y". */
const EN_CHANGED_TO = enRule(String.raw`(.+?)\s+(?:has\s+|have\s+)?(?:changed|switched)\s+(?:over\s+)?to\s+(.+)$`);
/** "We set the X port to Y", "I changed my email to Y". */
const EN_WE_SET = enRule(String.raw`(?:i|we)${HAVE}?(?:\s+(?:just|now|finally|also))*\s+${CHANGE_VERB}\s+(.+?)\s+to\s+(.+)$`);
const EN_THING_MOVED = enRule(String.raw`(.+?)\s+(?:has\s+|have\s+)?moved\s+to\s+(.+)$`);
const EN_IS_NOW = enRule(String.raw`(.+?)\s+(?:is|are)\s+now\s+(.+)$`);
/** "The payment service port is 8080": a plain "is" only for a thing with an attribute noun. */
const EN_ATTRIBUTE_IS = enRule(String.raw`(.+?)\s+(?:is|are)\s+(.+)$`);
/** "The payment service (now) runs on port 9090", "… uses port 9090", "… is on port 9090": the value names its attribute. */
const EN_RUNS_ON = enRule(String.raw`(.+?)\s+(?:now\s+)?(?:runs|listens|is running|is listening|is served|is hosted|uses|is using|is now|is|are)\s+(?:on\s+|at\s+)?(?:now\s+)?(.+)$`);
/** A clause that leaves out "I", as chat does: "Just moved to Busan!", "Working at Kakao now". */
const IMPLIED_I = new RegExp(`${LEAD}(?=(?:(?:just|recently|finally|now|currently|still)\\s+)*(?:moved|relocated|started working|(living in|working at|working for|based in))\\b)`, 'i');

const person = (word: string, who: Persons): string => (word.toLowerCase() === 'you' ? who.other : who.self);

/** "X moved to port 8443": the value names its attribute. */
function attributeValue(value: string): { relation: string; value: string } | null {
  const m = value.match(/^(\S+)\s+(.+)$/);
  return m && ATTRIBUTE_NOUNS.has(m[1]!.toLowerCase()) ? { relation: canonicalRelation(m[1]!), value: m[2]! } : null;
}

/** Everyday facts about oneself that take a set-phrase frame: where one is from, allergies, pets, diet, languages, age. */
const EN_FROM = enRule(String.raw`${SUBJECT}${BE}${ADVERBS}\s+(?:originally\s+)?from\s+(.+)$`);
const EN_ALLERGIC = enRule(String.raw`${SUBJECT}${BE}${ADVERBS}\s+(?:very\s+|severely\s+|mildly\s+)?allergic\s+to\s+(.+)$`);
const EN_PET = enRule(
  String.raw`${SUBJECT}${HAVE}?(?:\s+got)?\s+(?:a|an|one|two|three)\s+(?:\w+\s+)?(dog|cat|puppy|kitten|rabbit|hamster|parrot|turtle|pet)\s+(?:named|called)\s+(\p{Lu}[\p{L}'-]*)`,
  'iu',
);
const EN_DIET = enRule(String.raw`${SUBJECT}${BE}${ADVERBS}\s+(?:a\s+)?(vegetarian|vegan|pescatarian|lactose intolerant|gluten[- ]free|on a keto diet|keto|halal|kosher)\b`);
const EN_SPEAKS = enRule(String.raw`${SUBJECT}${ADVERBS}\s+speaks?\s+(?:fluent\s+|some\s+|a little\s+)?(\p{Lu}\p{L}+)`, 'iu');
const EN_AGE = enRule(String.raw`${SUBJECT}${BE}${ADVERBS}\s+(\d{1,3})(?:\s+years?\s+old)?$`);

const SET_PHRASE_RULES: Rule[] = [
  (s, who) => {
    const m = s.match(EN_FROM);
    const value = m && placeValue(m[2]!.replace(/\s+(?:originally|by birth|myself)\s*$/i, ''));
    // A place has a name: "from Busan", "from the US"; not "from the future", "from work".
    if (!m || !value || !/^(?:the\s+)?[\p{Lu}\p{Lo}]/u.test(value)) return null;
    return { subject: person(m[1]!, who), relation: 'is from', value, cardinality: 'one', rule: 'en: I am from Y' };
  },
  (s, who) => {
    const m = s.match(EN_ALLERGIC);
    const value = m && cleanValue(m[2]!);
    return m && value ? { subject: person(m[1]!, who), relation: 'allergic to', value, cardinality: 'many', rule: "en: I'm allergic to Y" } : null;
  },
  (s, who) => {
    const m = s.match(EN_PET);
    return m ? { subject: person(m[1]!, who), relation: 'has a pet', value: `${m[3]} (${m[2]!.toLowerCase()})`, cardinality: 'many', rule: 'en: I have a dog named Y' } : null;
  },
  (s, who) => {
    const m = s.match(EN_DIET);
    return m ? { subject: person(m[1]!, who), relation: 'diet', value: m[2]!.toLowerCase().replace(/^on a\s+/, ''), cardinality: 'one', rule: "en: I'm vegetarian" } : null;
  },
  (s, who) => {
    const m = s.match(EN_SPEAKS);
    return m ? { subject: person(m[1]!, who), relation: 'speaks', value: m[2]!, cardinality: 'many', rule: 'en: I speak Y' } : null;
  },
  (s, who) => {
    const m = s.match(EN_AGE);
    return m && Number(m[2]) > 0 && Number(m[2]) < 130 ? { subject: person(m[1]!, who), relation: 'age', value: m[2]!, cardinality: 'one', rule: "en: I'm N years old" } : null;
  },
];

const EN_RULES: Rule[] = [
  ...SET_PHRASE_RULES,
  (s, who) => {
    const m = s.match(EN_MY_IS) ?? s.match(EN_MY_CONTRACTED);
    const value = m && cleanValue(m[3]!);
    if (!m || !value || PERSON_NOUN.test(m[2]!)) return null;
    const relation = canonicalRelation(m[2]!);
    if (!plausible(relation, value)) return null;
    const subject = m[1]!.toLowerCase() === 'my' ? who.self : who.other;
    return { subject, relation, value: relation === 'lives in' ? canonicalPlace(value) : value, cardinality: 'one', rule: 'en: my X is Y' };
  },
  (s, who) => {
    const m = s.match(EN_MOVED);
    const value = m && placeValue(m[2]!);
    return m && value ? { subject: person(m[1]!, who), relation: 'lives in', value, cardinality: 'one', rule: 'en: I moved to Y' } : null;
  },
  (s, who) => {
    const m = s.match(EN_LIVES);
    const value = m && placeValue(m[2]!);
    return m && value ? { subject: person(m[1]!, who), relation: 'lives in', value, cardinality: 'one', rule: 'en: I live in Y' } : null;
  },
  (s, who) => {
    const m = s.match(EN_WORKS);
    const value = m && placeValue(m[2]!, EMPLOYER_TAIL, NOT_AN_EMPLOYER);
    return m && value ? { subject: person(m[1]!, who), relation: 'works at', value, cardinality: 'one', rule: 'en: I work at Y' } : null;
  },
  (s, who) => {
    const m = s.match(EN_WORKS_AS);
    const value = m && cleanValue(m[2]!.replace(EMPLOYER_TAIL, ''));
    return m && value ? { subject: person(m[1]!, who), relation: 'job', value, cardinality: 'one', rule: 'en: I work as Y' } : null;
  },
  (s, who) => {
    const m = s.match(EN_CALL_ME);
    // Names are capitalised: a case-sensitive look at what the case-insensitive rule found.
    const words = m ? m[1]!.split(/\s+/) : [];
    const name = words.filter((w, i) => i === 0 || /^\p{Lu}/u.test(w)).join(' ');
    if (!m || !/^\p{Lu}/u.test(words[0]!) || NOT_A_NAME.test(words[0]!)) return null;
    return { subject: who.self, relation: 'name', value: name, cardinality: 'one', rule: 'en: call me Y' };
  },
  (s, who) => {
    const m = s.match(EN_LIKES);
    const verb = m?.[2]!.toLowerCase() ?? '';
    const value = m && cleanValue(m[3]!.replace(verb === 'prefer' ? PREFER_TAIL : LIKE_TAIL, ''));
    // "I love you", "I like my job": about a person or one's own, not a taste to keep as a preference.
    if (!m || !value || /^(?:my|your|our|his|her|their)\b/i.test(value)) return null;
    const negative = /^(?:don't|do not|dislike|hate|can't|cannot|detest)/.test(verb);
    return { subject: person(m[1]!, who), relation: negative ? 'dislikes' : 'likes', value, cardinality: 'many', rule: 'en: I like Y' };
  },
  (s, who) => {
    const m = s.match(EN_SET_TO) ?? s.match(EN_CHANGED_TO);
    const value = m && cleanValue(m[2]!);
    const thing = m && value ? thingOf(m[1]!, who, 'any') : null;
    return thing && value ? { ...thing, value, cardinality: 'one', rule: 'en: X is set to Y' } : null;
  },
  (s, who) => {
    const m = s.match(EN_WE_SET);
    const raw = m && cleanValue(m[2]!);
    if (!m || !raw) return null;
    const attribute = attributeValue(raw);
    const thing = thingOf(m[1]!, who, attribute ? 'any' : 'attribute');
    if (!thing) return null;
    if (attribute && thing.relation === 'is') return { subject: thing.subject, ...attribute, cardinality: 'one', rule: 'en: we set X to Y' };
    return { ...thing, value: raw, cardinality: 'one', rule: 'en: we set X to Y' };
  },
  (s) => {
    const m = s.match(EN_THING_MOVED);
    const value = m && cleanValue(m[2]!);
    const bare = m ? m[1]!.replace(/^(?:the|our)\s+/i, '') : '';
    // "My friend moved to Busan", "She moved…": someone's news, not a thing's location.
    if (!m || !value || PRONOUN_IN_THING.test(bare) || PERSON_NOUN.test(bare)) return null;
    const attribute = attributeValue(value);
    if (attribute) return { subject: bare, ...attribute, cardinality: 'one', rule: 'en: X moved to Y' };
    const thing = splitThing(m[1]!);
    return { subject: thing.relation === 'is' ? thing.subject : `${thing.subject} ${thing.relation}`, relation: 'location', value, cardinality: 'one', rule: 'en: X moved to Y' };
  },
  (s, who) => {
    const m = s.match(EN_IS_NOW);
    const value = m && cleanValue(m[2]!);
    const thing = m && value ? thingOf(m[1]!, who, 'named') : null;
    return thing && value ? { ...thing, value, cardinality: 'one', rule: 'en: X is now Y' } : null;
  },
  (s, who) => {
    const m = s.match(EN_RUNS_ON);
    const value = m && cleanValue(m[2]!);
    const attribute = value && attributeValue(value);
    const thing = m && attribute ? thingOf(m[1]!, who, 'any') : null;
    if (!thing || !attribute || thing.relation !== 'is') return null;
    return { subject: thing.subject, ...attribute, cardinality: 'one', rule: 'en: X runs on port Y' };
  },
  (s, who) => {
    const m = s.match(EN_ATTRIBUTE_IS);
    const value = m && cleanValue(m[2]!);
    // Without "set to" or "now", only a value that looks like one: "the staging database is slow" is an opinion.
    const thing = m && value && VALUE_LIKE.test(value) && !/^(?:my|your)\s/i.test(m[1]!) ? thingOf(m[1]!, who, 'attribute') : null;
    return thing && value ? { ...thing, value, cardinality: 'one', rule: 'en: X attribute is Y' } : null;
  },
];

/** First and second person, as the speaker means them: the user's "my" and the assistant's "your" are the user. */
function persons(speaker: Speaker): Persons {
  if (speaker === 'assistant') return { self: 'assistant', other: 'user' };
  if (speaker === 'user') return { self: 'user', other: 'assistant' };
  return { self: speaker, other: 'user' };
}

// ---- clauses ----------------------------------------------------------------------------------

/**
 * Where a sentence starts saying a second thing: "My name is Minji and I live in Seoul", "I used
 * to live in Seoul, but now I live in Busan", "Last week, I moved to Daejeon". Only before a new
 * first- or second-person subject, so "fish and chips" stays one value.
 */
const EN_CLAUSE_BREAK =
  /\s*[,;]\s*(?:(?:and|but|so|plus)\s+)?(?=(?:now\s+|then\s+|also\s+)?(?:i|i'm|i've|my|we|we're|we've|our|you|your)\b)|\s+(?:and|but|so|plus)\s+(?=(?:now\s+|then\s+|also\s+)?(?:i|i'm|i've|my|we|we're|we've|our)\b)/i;
const KO_CLAUSE_BREAK = /\s*,\s*|\s+(?:그리고|그런데|근데|하지만|그래서)\s+/;
/** The wrong value a fix sets before the right one: "not in Seattle but", "서울이 아니라". */
const EN_NOT_X_BEFORE = /\bnot\s+(?:in\s+|at\s+|to\s+)?[^,;!?]+?,?\s+but\s+(?=in\b|at\b|to\b|\p{Lu})/iu;
const KO_NOT_X_BEFORE = new RegExp(String.raw`\S+?(?:${oneOf(ko.particles.subject)})?\s*아니(?:라|고)\s+`, 'u');
/** A clause this long is no stated fact; leaving it to prose also keeps every rule's work small. */
const MAX_CLAUSE_CHARS = 300;

const stripStage = (s: string): string =>
  s
    .replace(/\*[^*]*\*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Whole-word patterns by cue, compiled once: the gates test the same few hundred cues on every
 * message (compiling them each time was a fifth of a message's JavaScript). Policies are small;
 * the bound only keeps a pathological one from growing it without end.
 */
const CUE_PATTERNS = new Map<string, RegExp>();
const MAX_CUE_PATTERNS = 10_000;

function matchesCue(text: string, cue: string, language: Language): boolean {
  const c = cue.toLowerCase();
  if (/[\uac00-\ud7a3]/.test(c) || language === 'ko') return text.toLowerCase().includes(c);
  let pattern = CUE_PATTERNS.get(c);
  if (!pattern) {
    pattern = new RegExp(`(?<![\\p{L}\\p{N}])${c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'iu');
    if (CUE_PATTERNS.size >= MAX_CUE_PATTERNS) CUE_PATTERNS.clear();
    CUE_PATTERNS.set(c, pattern);
  }
  return pattern.test(text);
}

/** Whether any of the words or phrases appears: whole words in English, substrings in Korean. */
export function containsAny(text: string, words: string[], language: Language): string | null {
  return words.find((w) => matchesCue(text, w, language)) ?? null;
}

export function extractCandidates(input: ExtractionInput): Candidate[] {
  const { triage, at } = input;
  const who = persons(input.speaker);
  const statements = triage.sentences.filter((s) => s.act === 'statement');
  const ko = triage.language === 'ko';
  const rules = ko ? KO_RULES : EN_RULES;
  const triples: Candidate[] = [];
  const seen = new Set<string>();
  const rest: string[] = [];
  for (const sentence of statements) {
    const plain = stripStage(sentence.text);
    // A time phrase in a clause without a fact ("Last week, …") dates the clauses after it.
    let carried: Date | null = null;
    let found = 0;
    const fix = fixOf(plain, triage.language);
    for (const clause of plain ? plain.split(ko ? KO_CLAUSE_BREAK : EN_CLAUSE_BREAK) : []) {
      // A fix's wrong value set beside the right one is no part of the fact: "not in Seattle but in Tacoma", "서울이 아니라 부산에".
      const said = clause
        .replace(/[.!。！~]+$/u, '')
        .replace(ko ? KO_NOT_X_BEFORE : EN_NOT_X_BEFORE, '')
        .trim();
      const bare = ko ? said : said.replace(IMPLIED_I, (lead: string, ing?: string) => `${lead}${ing ? "I'm" : 'I'} `);
      const stated = timeOf(clause, at, triage.language);
      const when = stated?.time ?? null;
      let triple: Triple | null = null;
      for (const rule of bare && bare.length <= MAX_CLAUSE_CHARS ? rules : []) {
        if ((triple = rule(bare, who))) break;
      }
      if (!triple) {
        carried = when ?? carried;
        continue;
      }
      found++;
      // The time phrase is no part of the value: "Denver on Friday" is "Denver".
      const cut = stated ? triple.value.toLowerCase().indexOf(stated.phrase.toLowerCase()) : -1;
      if (cut > 0) triple = { ...triple, value: triple.value.slice(0, cut).replace(/[\s,]+$/u, '') };
      const key = `${triple.subject}\u0000${triple.relation}\u0000${triple.value}`;
      if (seen.has(key)) continue;
      seen.add(key);
      triples.push({
        memoryKind: 'fact',
        subject: triple.subject,
        relation: triple.relation,
        value: triple.value,
        cardinality: triple.cardinality,
        labels: [typeOfRelation(triple.relation)],
        text: sentence.text,
        validFrom: when ?? carried ?? at,
        core: CORE_RELATIONS.has(triple.relation) && triple.subject === 'user',
        rule: triple.rule,
        ...(fix ? { correction: true as const } : {}),
      });
    }
    if (found === 0) rest.push(sentence.text);
  }
  if (triples.length > 0 || rest.length === 0) return triples;
  const text = rest.join(' ');
  const labels = Object.entries(input.cues)
    .filter(([, cues]) => containsAny(stripStage(text), cues, triage.language) !== null)
    .map(([type]) => type);
  return [
    {
      memoryKind: 'prose',
      subject: null,
      relation: null,
      value: null,
      cardinality: null,
      labels,
      text,
      validFrom: validFromOf(text, at, triage.language),
      core: false,
      rule: labels.length ? `prose, labelled by cue words (${labels.join(', ')})` : 'prose: no rule found a triple',
    },
  ];
}
