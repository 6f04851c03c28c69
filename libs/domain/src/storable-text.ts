/**
 * Text that the log can hold, pure. PostgreSQL's text and jsonb refuse U+0000, and a lone UTF-16
 * surrogate has no UTF-8 form: the driver would send U+FFFD in its place and store something the
 * caller never said. So every string of an input, and every key of its objects, is checked before
 * anything else, and each one that cannot be stored as given is named.
 */
import type { FieldIssue } from './errors';

/** What makes a string unstorable, or null when it can be stored as given. */
export function unstorable(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  // With the u flag a well-formed pair is one code point, so this matches a lone surrogate only.
  if (/[\uD800-\uDFFF]/u.test(text)) return 'must not contain a lone UTF-16 surrogate (text that has no UTF-8 form)';
  return null;
}

/** Every string (and object key) of `input` that cannot be stored, with its path ("claims.0.says"). */
export function unstorableFields(input: unknown, path: string[] = [], found: FieldIssue[] = [], seen = new Set<object>()): FieldIssue[] {
  if (typeof input === 'string') {
    const why = unstorable(input);
    if (why) found.push({ path: path.join('.'), message: why });
  } else if (input !== null && typeof input === 'object' && !seen.has(input) && !(input instanceof Date)) {
    seen.add(input);
    for (const [key, value] of Object.entries(input)) {
      const why = unstorable(key);
      if (why) found.push({ path: [...path, key.replace(/[\u0000\uD800-\uDFFF]/g, '\uFFFD')].join('.'), message: `a field name ${why}` });
      unstorableFields(value, [...path, key], found, seen);
    }
  }
  return found;
}
