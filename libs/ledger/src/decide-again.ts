/**
 * The one read–decide–append loop of the ledger's commands (facts, rollbacks, answers, erasures):
 * `attempt` reads the streams it needs, decides on what it read and appends with the versions it
 * read; when another writer changed one of them first (ExpectedVersionConflict), it runs again
 * on the new state, at most MAX_CONFLICT_RETRIES more times, and the conflict goes to
 * `onConflict` first (the stream as the refusal brought it back, so the next read can skip it).
 *
 * A loop of its own rather than a retry library: the retry is a new decision on new input, not a
 * repeat of the same call, and it must not wait (the winner already committed).
 */
import { ExpectedVersionConflict } from '@factledger/store';

export const MAX_CONFLICT_RETRIES = 5;

export async function decideAgainOnConflict<T>(attempt: (n: number) => Promise<T>, onConflict?: (conflict: ExpectedVersionConflict) => void): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!(error instanceof ExpectedVersionConflict) || n >= MAX_CONFLICT_RETRIES) throw error;
      onConflict?.(error);
    }
  }
}
