/**
 * Typed errors of the ledger. Each carries a stable `code` that the HTTP layer maps to a status
 * in one place, and a message that says what went wrong and what to do about it.
 */
export abstract class LedgerError extends Error {
  abstract readonly code: string;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export interface FieldIssue {
  path: string;
  message: string;
}

/** Input that cannot be a valid command or query. Nothing was changed. */
export class InvalidInputError extends LedgerError {
  readonly code = 'invalid_input';
  constructor(readonly issues: FieldIssue[]) {
    super(`invalid input: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`);
  }
}

/** The memory does not exist in this tenant (another tenant's memory looks exactly like this). */
export class UnknownMemoryError extends LedgerError {
  readonly code = 'unknown_memory';
  constructor(readonly memoryId: string) {
    super(`no memory ${memoryId} in this tenant`);
  }
}

/** The memory was erased: its words are gone, only the fact that it was erased (and when) remains. */
export class MemoryErasedError extends LedgerError {
  readonly code = 'memory_erased';
  constructor(
    readonly memoryId: string,
    readonly erasure: { erasureId: string; erasedAt: string; position: number; actor: string | null },
  ) {
    super(`memory ${memoryId} was erased at ${erasure.erasedAt} (erasure ${erasure.erasureId})`);
  }
}

/** A key already has a different cardinality; a relation cannot be both a value and a set. */
export class CardinalityConflictError extends LedgerError {
  readonly code = 'cardinality_conflict';
  constructor(
    readonly expected: string,
    readonly given: string,
  ) {
    super(`this key holds cardinality '${expected}'; an assert with cardinality '${given}' cannot change it`);
  }
}

/** A lifecycle command that does not fit the memory's state (e.g. retracting prose by value). */
export class IllegalLifecycleError extends LedgerError {
  readonly code = 'illegal_lifecycle';
}

/**
 * A restore into a slot another version holds: a rival of the quarantined memory's key with the
 * very same start, so the memory would come back valid at no time. Nothing was changed; `heldBy`
 * is the memory that holds the slot.
 */
export class SlotTakenError extends LedgerError {
  readonly code = 'slot_taken';
  constructor(
    readonly memoryId: string,
    readonly heldBy: string,
    readonly validFrom: string,
  ) {
    super(`memory ${memoryId} cannot be restored: memory ${heldBy} holds its slot (the same key from the same start, ${validFrom}); retract or quarantine ${heldBy} first, or assert the value again`);
  }
}

/** No lifecycle change of this tenant carried the batch label. */
export class UnknownBatchError extends LedgerError {
  readonly code = 'unknown_batch';
  constructor(readonly batch: string) {
    super(`no change in this tenant carries the batch label '${batch}'`);
  }
}

/** No answer with this id in the tenant. */
export class UnknownAnswerError extends LedgerError {
  readonly code = 'unknown_answer';
  constructor(readonly answerId: string) {
    super(`no answer ${answerId} in this tenant`);
  }
}

/** No message with this id was ingested in the tenant. */
export class UnknownMessageError extends LedgerError {
  readonly code = 'unknown_message';
  constructor(readonly messageId: string) {
    super(`no message ${messageId} was ingested in this tenant`);
  }
}

/**
 * The command id was first used for another command (another kind of write, or other input): it
 * replays only the command it first named. Nothing was written; a new command needs a new id.
 */
export class CommandIdReusedError extends LedgerError {
  readonly code = 'command_id_reused';
  constructor(readonly commandId: string) {
    super(`command id '${commandId}' was already used for another command; retry only the same command with it, and give a new command a new id`);
  }
}

/**
 * A configured feature needs a package that is an optional peer of factledger's packages (the
 * OpenAI SDK, the KurrentDB client), and it is not installed: a lean install leaves them out.
 */
export class OptionalPackageMissingError extends LedgerError {
  readonly code = 'optional_package_missing';
  constructor(
    readonly packageName: string,
    readonly feature: string,
  ) {
    super(`${feature} needs the package ${packageName}, which is not installed: npm install ${packageName}`);
  }
}

/**
 * Loads an optional peer package through `load` (a dynamic import of it written at the call site,
 * so the loaded module keeps its types), on first use: a module-not-found of `name` itself
 * becomes an OptionalPackageMissingError; any other failure is thrown unchanged.
 */
export async function loadOptionalPackage<T>(name: string, feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    const notFound = code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND';
    if (notFound && typeof message === 'string' && (message.includes(`'${name}'`) || message.includes(`"${name}"`))) throw new OptionalPackageMissingError(name, feature);
    throw error;
  }
}
