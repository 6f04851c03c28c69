/**
 * Who is acting, carried through one call without threading it through every method: the HTTP
 * layer runs a request under its API key's id, a host application under the actor id it passes
 * with a command. Every append made inside takes it into its events (AppendContext.actor).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const acting = new AsyncLocalStorage<string>();

/** Runs `fn` with `actor` as the actor of every event it appends. */
export function actingAs<T>(actor: string | null | undefined, fn: () => T): T {
  return actor ? acting.run(actor, fn) : fn();
}

/** The actor of the call in progress, or null. */
export const currentActor = (): string | null => acting.getStore() ?? null;
