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

/**
 * The speaker a memory's text names itself as, as in a transcript ("Caroline: I went …"): one to
 * three capitalised words before a colon at the very start; null when the text does not open so.
 */
export function speakerLabel(text: string): string | null {
  const m = /^\s*(\p{Lu}[\p{L}\p{M}'’.-]*(?:\s\p{Lu}[\p{L}\p{M}'’.-]*){0,2})\s*:\s/u.exec(text);
  return m ? m[1]! : null;
}

/** How a memory's text is cut into passages (see `passageTexts`). */
export interface PassageOptions {
  /** A sentence of fewer words joins the one after it (or, last, the one before). */
  minWords: number;
  /** Most passages a memory gets; a longer text's sentences are grouped into this many, in order. */
  maxPassages: number;
}

export const DEFAULT_PASSAGES: PassageOptions = { minWords: 5, maxPassages: 8 };

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });
const wordsIn = (s: string): number => s.split(/\s+/u).filter(Boolean).length;

/**
 * What is embedded for a memory besides its whole text: each of its sentences, when it has two or
 * more, each under the type's description and the transcript label of the whole ("past event:
 * Melanie: It's like therapy for me."). A long turn's embedding averages its greetings with
 * what it is about; a sentence's does not, so a question can find the one sentence it asks
 * about. Sentences come from `Intl.Segmenter` (Unicode's sentence boundaries: any language); a
 * short one ("Wow, Caroline!") goes with the next rather than alone. Empty for a text of one
 * sentence: its whole embedding already is that sentence's.
 */
export function passageTexts(type: string, text: string, options: PassageOptions = DEFAULT_PASSAGES): string[] {
  const label = speakerLabel(text);
  const body = label ? text.slice(text.indexOf(':') + 1) : text;
  const parts: string[] = [];
  let pending = '';
  for (const { segment } of sentences.segment(body)) {
    const s = segment.trim();
    if (!s) continue;
    pending = pending ? `${pending} ${s}` : s;
    if (wordsIn(pending) >= options.minWords) {
      parts.push(pending);
      pending = '';
    }
  }
  if (pending) {
    if (parts.length) parts[parts.length - 1] = `${parts[parts.length - 1]} ${pending}`;
    else parts.push(pending);
  }
  if (parts.length < 2) return [];
  const groups = Math.min(parts.length, Math.max(1, Math.trunc(options.maxPassages)));
  const grouped = Array.from({ length: groups }, (_, g) => parts.slice(Math.floor((g * parts.length) / groups), Math.floor(((g + 1) * parts.length) / groups)).join(' '));
  return grouped.map((p) => embeddingText(type, label ? `${label}: ${p}` : p));
}

/** Every text recall embeds for a memory of this type: the whole (`embeddingText`) and its passages. */
export const embeddedTexts = (type: string, text: string): string[] => [embeddingText(type, text), ...passageTexts(type, text)];
