/**
 * What a write's reply may tell a caller that cannot read (an API key with `write` and no `read`).
 * A write answers with what it did, and some of that is the words of other memories: a prose
 * statement says which earlier memories it restated (their text, their frame, their old value),
 * a message says what resolution compared it with. A key that may only write must learn no more
 * from writing than it sent: those words are left out, the ids, decisions and positions stay.
 */

type Reply = Record<string, unknown>;

const without = (item: unknown, fields: readonly string[]): unknown => {
  if (item === null || typeof item !== 'object') return item;
  const kept: Reply = { ...(item as Reply) };
  for (const field of fields) delete kept[field];
  return kept;
};

const eachWithout = (list: unknown, fields: readonly string[], inner?: (item: Reply) => Reply): unknown =>
  Array.isArray(list)
    ? list.map((item) => {
        const kept = without(item, fields) as Reply;
        return inner ? inner(kept) : kept;
      })
    : list;

/** The words of earlier memories in a statement's decisions (restatement, turn parts, resolution). */
const RESTATED = ['text', 'frame', 'earlierValue'] as const;
const REPLACED = ['earlierValue'] as const;
const RESOLVED = ['text'] as const;

/** A write's reply (an assert's, a writeMany's, an ingest's) without the words of other memories. */
export function writerReply<T>(reply: T): T {
  if (reply === null || typeof reply !== 'object' || Array.isArray(reply)) return reply;
  const r: Reply = { ...(reply as Reply) };
  if ('restated' in r) r.restated = eachWithout(r.restated, RESTATED);
  if ('replacedParts' in r) r.replacedParts = eachWithout(r.replacedParts, REPLACED, (p) => ({ ...p, parts: eachWithout(p.parts, ['text']) }));
  if ('results' in r) r.results = Array.isArray(r.results) ? r.results.map((x) => writerReply(x)) : r.results;
  if ('candidates' in r) {
    r.candidates = eachWithout(r.candidates, [], (c) => ({
      ...c,
      ...('resolution' in c
        ? {
            resolution: eachWithout(c.resolution, RESOLVED, (x) => ({
              ...x,
              ...('scores' in x ? { scores: without(x.scores, ['oldValue']) } : {}),
              ...('frame' in x ? { frame: without(x.frame, ['frame']) } : {}),
            })),
          }
        : {}),
    }));
  }
  return r as T;
}
