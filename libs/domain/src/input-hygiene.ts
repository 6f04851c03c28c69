/**
 * What every input must be before any validation looks at it, pure. Each problem is named by its
 * field's path ("claims.0.says"), and nothing is changed by an input that has one:
 *
 * - text the log can hold: PostgreSQL's text and jsonb refuse U+0000, and a lone UTF-16 surrogate
 *   has no UTF-8 form (the driver would send U+FFFD, something the caller never said);
 * - no object key `__proto__`, `constructor` or `prototype`, at any depth: copying such an object
 *   (a spread, a schema's record) drops or reinterprets that key, so a scope of
 *   `{"__proto__": "staging"}` would silently become no scope at all;
 * - at most MAX_INPUT_DEPTH levels of nesting and MAX_INPUT_VALUES values: no input of the API is
 *   nearly that deep or large, and a walk over it must neither recurse without bound nor run long.
 *   The walk itself is iterative, so a hostile depth is an issue, never a stack overflow.
 */
import type { FieldIssue } from './errors';

export const MAX_INPUT_DEPTH = 32;
export const MAX_INPUT_VALUES = 100_000;
const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** What makes a string unstorable, or null when it can be stored as given. */
export function unstorable(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  // With the u flag a well-formed pair is one code point, so this matches a lone surrogate only.
  if (/[\uD800-\uDFFF]/u.test(text)) return 'must not contain a lone UTF-16 surrogate (text that has no UTF-8 form)';
  return null;
}

/** A key as it can be shown in a path (the unstorable characters replaced). */
const shown = (key: string): string => key.replace(/[\u0000\uD800-\uDFFF]/g, '\uFFFD');

/** Every problem of `input` (see the module's note), each with its field's path. */
export function inputIssues(input: unknown): FieldIssue[] {
  const found: FieldIssue[] = [];
  const seen = new Set<object>();
  // Each field with the problem of its own name, if any: named when the walk reaches it, in order.
  type Field = { value: unknown; path: string[]; named?: FieldIssue };
  const stack: Field[] = [{ value: input, path: [] }];
  let values = 0;
  while (stack.length > 0) {
    const { value, path, named } = stack.pop()!;
    if (named) found.push(named);
    if (++values > MAX_INPUT_VALUES) {
      found.push({ path: '', message: `holds more than ${MAX_INPUT_VALUES} values` });
      break;
    }
    if (typeof value === 'string') {
      const why = unstorable(value);
      if (why) found.push({ path: path.join('.'), message: why });
      continue;
    }
    if (value === null || typeof value !== 'object' || value instanceof Date || seen.has(value)) continue;
    if (path.length >= MAX_INPUT_DEPTH) {
      found.push({ path: path.join('.'), message: `nests deeper than ${MAX_INPUT_DEPTH} levels` });
      continue;
    }
    seen.add(value);
    const next: Field[] = [];
    for (const [key, child] of Object.entries(value)) {
      const at = [...path, shown(key)];
      const why = unstorable(key);
      const named = why ? `a field name ${why}` : RESERVED_KEYS.has(key) ? `"${key}" is not allowed as a field name` : null;
      next.push({ value: child, path: at, ...(named ? { named: { path: at.join('.'), message: named } } : {}) });
    }
    // Last in, first out: pushed in reverse, the fields are walked (and named) in their order.
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
  }
  return found;
}
