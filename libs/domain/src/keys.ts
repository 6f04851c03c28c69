/**
 * Fact keys: `(subject, relation, scope)`, normalised so that spelling noise (case, runs of
 * whitespace, Unicode composition) never splits one key into two streams.
 */
import { createHash } from 'node:crypto';

export type Scope = Readonly<Record<string, string>>;

export interface FactKey {
  subject: string;
  relation: string;
  scope: Scope;
}

/** NFC, trimmed, inner whitespace collapsed, lower-cased (locale-independent). */
export function normalizeTerm(term: string): string {
  return term.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase();
}

export function normalizeScope(scope: Scope | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(scope ?? {})) out[normalizeTerm(k)] = normalizeTerm(String(v));
  return out;
}

/** Canonical text of a scope: `env=staging;region=eu`, keys sorted; empty for no scope. */
export function scopeKey(scope: Scope | undefined): string {
  const n = normalizeScope(scope);
  return Object.keys(n)
    .sort()
    .map((k) => `${k}=${n[k]}`)
    .join(';');
}

export function normalizeKey(key: FactKey): FactKey {
  return { subject: normalizeTerm(key.subject), relation: normalizeTerm(key.relation), scope: normalizeScope(key.scope) };
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** One stream per fact key, so concurrent writers to one key serialise on its version. */
export function factStreamId(key: FactKey): string {
  const n = normalizeKey(key);
  return `fact-${digest(JSON.stringify([n.subject, n.relation, scopeKey(n.scope)]))}`;
}

/** One stream per distinct prose text, so re-saying the same words lands on the same memory. */
export function proseStreamId(text: string): string {
  return `prose-${digest(normalizeTerm(text))}`;
}

/** Values compare after the same normalisation as keys ("Port 8080 " equals "port 8080"). */
export function sameValue(a: string, b: string): boolean {
  return normalizeTerm(a) === normalizeTerm(b);
}
