/**
 * Names of places and relations, pure: one value and one relation name for the ways people say
 * them, in English and Korean ("부산" is "Busan", "phone" and "연락처" are "phone number"), and
 * the type a relation gives its memory. The names are the languages' (../language).
 */
import { en, endingPattern, ko } from '../language';

/** A place's name in the romanisation both languages meet on: "부산광역시" is "Busan". */
const CITY_SUFFIX = endingPattern(ko.citySuffixes);

export function canonicalPlace(value: string): string {
  const bare = value.replace(CITY_SUFFIX, '');
  return ko.places[bare] ?? ko.places[value] ?? value;
}

/** Relation names: one name for the ways people say it, in English and Korean (the first that matches names it). */
const RELATION_SYNONYMS: [RegExp, string][] = Object.keys(en.relationSynonyms).map((name) => [
  new RegExp(`^(?:${[...en.relationSynonyms[name]!, ...(ko.relationSynonyms[name] ?? [])].join('|')})$`),
  name,
]);

export function canonicalRelation(phrase: string): string {
  const r = phrase
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    // "my new email", "my current address", "my real name": the same relation as without.
    .replace(/^(?:(?:new|current|updated|latest|present|real|actual)\s+)+(?=\S)/, '')
    .replace(/\bfav(?:e|ou?rite)?\b/g, 'favourite')
    .replace(/\bcolor\b/g, 'colour');
  for (const [pattern, name] of RELATION_SYNONYMS) if (pattern.test(r)) return name;
  const favourite = r.match(/^(?:(?:제일|가장)\s*)?좋아하는\s*(\S+)$/);
  if (favourite) return `favourite ${ko.favouriteOf[favourite[1]!] ?? favourite[1]}`;
  return r;
}

/**
 * Who the user is, where they live, come from and work: the few facts an agent should always have at hand,
 * so they go to the always-on profile channel (bounded by its own budget). Everything else is
 * recalled only when a query calls for it.
 */
export const CORE_RELATIONS: ReadonlySet<string> = new Set(['name', 'lives in', 'is from', 'works at', 'job']);

/** The relations that are about a person (the speaker or the one spoken to). */
export const PROFILE_RELATIONS = /^(?:name|email|phone number|address|birthday|lives in|works at|job|is from|age|speaks)$/;

/** The type a triple's relation gives its memory. */
export function typeOfRelation(relation: string): string {
  if (/^(?:likes|dislikes)$|^favourite\b|선호/.test(relation)) return 'preference';
  if (/^(?:allergic to|diet)$/.test(relation)) return 'health';
  if (PROFILE_RELATIONS.test(relation)) return 'profile';
  return 'fact';
}

/** Nouns that name an attribute of a thing ("payment service port", "결제 서비스 포트"): the relation of a config fact. */
export const ATTRIBUTE_NOUNS: ReadonlySet<string> = new Set([...en.attributeNouns, ...ko.attributeNouns]);

/** How a value of a contact or date relation looks: "My phone is broken" gives no phone number. */
const VALUE_SHAPE: Record<string, RegExp> = {
  email: /\S@\S/,
  'phone number': /\d{3}/,
  birthday: new RegExp(String.raw`\d|${en.months.join('|')}|월`, 'i'),
};
/** A verdict on something of one's own, not a value of it: "my job is boring", "my back is killing me". */
const OPINION_VALUE = new RegExp(String.raw`^(?:(?:so|very|really|too|kind of|pretty|super|quite)\s+)*(?:${en.opinionWords.join('|')})$`, 'i');

/** Whether a value can be one of the relation: shaped as the relation's values are, and no verdict. */
export function plausible(relation: string, value: string): boolean {
  return (VALUE_SHAPE[relation]?.test(value) ?? true) && !OPINION_VALUE.test(value);
}

// ---- the triples rules read ----------------------------------------------------------------------

/** A fact a rule reads off a clause. */
export interface Triple {
  subject: string;
  relation: string;
  value: string;
  cardinality: 'one' | 'many';
  rule: string;
}

/** First and second person as the speaker means them. */
export interface Persons {
  self: string;
  other: string;
}

export type Rule = (s: string, who: Persons) => Triple | null;
