/**
 * Command ids: what one is bound to (its fingerprint), the memory ids it fixes, and the refusal of
 * an id reused for another command. One home for the idempotency of every write.
 */
import { createHash } from 'node:crypto';
import { CommandIdReusedError } from '@factledger/domain';
import type { AppendContext, AppendResult } from '@factledger/store';

/** What a write carries besides its input: its ids and batch label. */
export type Meta = {
  commandId?: string;
  correlationId?: string;
  causationId?: string;
  batch?: string;
  /** What the command id is bound to (commandFingerprint); only with a command id. */
  fingerprint?: string;
};

/** The namespace of the memory ids a command id fixes (memoryIdsOf): a UUID of our own. */
const COMMAND_MEMORY_NAMESPACE = Buffer.from('6f1c2b7e9a4d4e0b8c3a5d2f1e0b9c7a', 'hex');

/**
 * The ids of the memories a write creates, in the order it plans them. With a command id they are
 * name-based UUIDs (version 5) of the tenant, the command id and the place: a retried command plans
 * the same ids, so when the store finds the command landed before (a reply lost to a crash, a
 * transaction that committed after its process died) the ids it answers with are the ones on
 * record, even if its decision was made before the first attempt became visible. Without one, random.
 */
export function memoryIdsOf(tenant: string, commandId: string | null | undefined, random: () => string): () => string {
  if (!commandId) return random;
  let n = 0;
  return () => {
    const hash = createHash('sha1').update(COMMAND_MEMORY_NAMESPACE).update(`${tenant}\u0000${commandId}\u0000${n++}`).digest();
    hash[6] = (hash[6]! & 0x0f) | 0x50;
    hash[8] = (hash[8]! & 0x3f) | 0x80;
    const hex = hash.subarray(0, 16).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}

/** The ids that only trace a command (where it came from), not what it asks: no part of its fingerprint. */
const TRACE_IDS = new Set(['commandId', 'correlationId', 'causationId']);

/** A value as canonical JSON: keys sorted, absent fields left out, dates as ISO text. */
function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(object)
      .filter((k) => object[k] !== undefined)
      .sort()
      .map((k) => [k, canonical(object[k])]),
  );
}

/**
 * What a command id is bound to: the hex SHA-256 of the kind of write and its validated input (as
 * canonical JSON, without the ids that only trace it). A retry of the same command has the same
 * one; another command that reuses the id has another, and is refused (CommandIdReusedError).
 */
export function commandFingerprint(kind: string, input: object): string {
  const own = Object.fromEntries(Object.entries(input).filter(([k]) => !TRACE_IDS.has(k)));
  return createHash('sha256')
    .update(JSON.stringify([kind, canonical(own)]))
    .digest('hex');
}

/** A write's meta with the fingerprint its command id is bound to (none without a command id). */
export function bound<M extends Meta>(kind: string, input: M): M {
  return input.commandId ? { ...input, fingerprint: commandFingerprint(kind, input) } : input;
}

/**
 * A command id the store found landed before must have named this same command: a retry answers
 * as replayed, another command is refused and nothing of it is written. A claim kept without a
 * fingerprint (made before migrations/027, or by a caller that gives none) takes any retry.
 */
export function refuseReusedCommandId(context: AppendContext, result: AppendResult): void {
  if (!result.duplicate || !context.commandId || !context.commandFingerprint || !result.commandFingerprint) return;
  if (result.commandFingerprint !== context.commandFingerprint) throw new CommandIdReusedError(context.commandId);
}
