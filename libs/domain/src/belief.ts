/**
 * What changed in what the ledger believed between two moments (the audit's diff), pure: the
 * versions in the read paths at each moment, grouped by stream (a key, or a prose memory's own),
 * and every stream whose versions differ (another memory, or another value), with both sides.
 */
export interface BelievedVersion {
  streamId: string;
  memoryId: string;
  value: string | null;
  text: string;
}

export interface BeliefChange<T> {
  streamId: string;
  /** What was believed at the first moment (empty: nothing held). */
  before: T[];
  /** What was believed at the second (empty: nothing holds any more). */
  after: T[];
}

/** Streams whose believed versions differ between `before` and `after`, in stream order. */
export function beliefChanges<T extends BelievedVersion>(before: readonly T[], after: readonly T[]): BeliefChange<T>[] {
  const byStream = (rows: readonly T[]): Map<string, T[]> => {
    const m = new Map<string, T[]>();
    for (const r of rows) m.set(r.streamId, [...(m.get(r.streamId) ?? []), r]);
    return m;
  };
  const signature = (rows: readonly T[]): string =>
    rows
      .map((r) => JSON.stringify([r.memoryId, r.value, r.text]))
      .sort()
      .join('\n');
  const [b, a] = [byStream(before), byStream(after)];
  const streams = [...new Set([...b.keys(), ...a.keys()])].sort();
  const changes: BeliefChange<T>[] = [];
  for (const streamId of streams) {
    const [was, is] = [b.get(streamId) ?? [], a.get(streamId) ?? []];
    if (signature(was) !== signature(is)) changes.push({ streamId, before: was, after: is });
  }
  return changes;
}
