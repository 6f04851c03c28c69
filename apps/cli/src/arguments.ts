/** Parsers of the command line's option values, shared by its commands. */
import { InvalidArgumentError } from 'commander';

/** A comma-separated list of names from `allowed`, each once; anything else is commander's usage error naming `what`. */
export function namesFrom<T extends string>(value: string, allowed: readonly T[], what: string): T[] {
  const names = [
    ...new Set(
      value
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = names.filter((n) => !(allowed as readonly string[]).includes(n));
  if (unknown.length || !names.length) throw new InvalidArgumentError(`unknown ${what} ${unknown.join(', ') || '(none)'}; choose from ${allowed.join(', ')}`);
  return names as T[];
}
