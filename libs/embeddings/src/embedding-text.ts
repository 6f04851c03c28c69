/**
 * What is embedded for a memory: a short description of its type in front of the verbatim text,
 * so that "prefers dark mode" as a preference and as a project note land apart. Only the
 * embedding sees this; the stored and shown text stays exactly as said.
 */

/** Short descriptions of the types the ledger knows; others are described by their own name. */
export const TYPE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  fact: 'fact',
  preference: 'preference',
  profile: 'profile of the user',
  milestone: 'relationship milestone',
  config: 'configuration setting',
  project: 'project',
  current_project: 'current project',
  episode: 'past event',
  decision: 'decision',
  habit: 'habit',
  health: 'health',
  date: 'important date',
  achievement: 'achievement',
  gift: 'gift',
  'shared-thing': 'something shared',
};

/** Used when a type is neither known nor a plain word or two (a type is free text from the caller). */
export const DEFAULT_TYPE_DESCRIPTION = 'memory';

const PLAIN_TYPE = /^[a-z][a-z0-9]*(?:[ _-][a-z0-9]+){0,3}$/;

export function describeType(type: string): string {
  const key = type.trim().toLowerCase();
  if (Object.hasOwn(TYPE_DESCRIPTIONS, key)) return TYPE_DESCRIPTIONS[key];
  return PLAIN_TYPE.test(key) ? key.replace(/[_-]/g, ' ') : DEFAULT_TYPE_DESCRIPTION;
}

/** `'preference: I like my coffee black.'`: the type's description, a colon, the text unchanged. */
export function embeddingText(type: string, text: string): string {
  return `${describeType(type)}: ${text}`;
}
