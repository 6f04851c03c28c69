/**
 * factledger as a Model Context Protocol server: the tools an agent calls to remember, recall and
 * check, each one the same command or query the HTTP API dispatches (the host's CommandBus and
 * QueryBus), with input schemas made from the same zod schemas the ledger validates with. One
 * server is made per connection (stdio) or per request (streamable HTTP), for one tenant, with
 * what its caller may do (`allow`): a tool needing a scope the caller lacks is a tool error.
 *
 * A tool error carries the ledger's error code and message (`invalid_input: …` with the fields
 * named); the server itself never fails on a bad call, and a refused call changes nothing.
 */
import { type AccessScope, InvalidInputError, LedgerError } from '@factledger/domain';
import { actingAs, assertSchema, factQuerySchema, historyQuerySchema, ingestMessageSchema, quarantineSchema, recordAnswerSchema, verifyClaimsSchema, writerReply } from '@factledger/ledger';
import { recallQuerySchema } from '@factledger/recall';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CommandBus, QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import {
  AssembleContextQuery,
  AssertMemoryCommand,
  GetFactQuery,
  GetHistoryQuery,
  GetMemoryQuery,
  GetTraceQuery,
  IngestMessageCommand,
  QuarantineMemoryCommand,
  RecordAnswerCommand,
  RestoreMemoryCommand,
  ConfirmMemoryCommand,
  VerifyClaimsQuery,
} from './ledger.commands';

export interface McpCaller {
  tenant: string;
  /** Who acts, for the log (an API key's id); none when nobody is named. */
  actor?: string;
  /** Throws (AccessDeniedError) when the caller may not use `scope`. */
  allow(scope: AccessScope): Promise<void>;
}

export interface McpBuses {
  commands: CommandBus;
  queries: QueryBus;
}

/** What a tool returns: its result as JSON text, and the same as structured content. */
function ok(result: unknown, text?: string): CallToolResult {
  return { content: [{ type: 'text', text: text ?? JSON.stringify(result, null, 2) }], structuredContent: result as Record<string, unknown> };
}

/** A ledger error as a tool error: its code, its message, and for bad input each field. */
export function toolError(error: unknown, onUnexpected: (error: unknown) => void = () => undefined): CallToolResult {
  // An invalid_input message names each field already.
  if (error instanceof LedgerError) return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}` }] };
  onUnexpected(error);
  return { isError: true, content: [{ type: 'text', text: 'internal: internal error; it has been logged' }] };
}

const fromLedger = <T extends z.ZodObject>(schema: T) => schema.shape;
/**
 * A time as the caller writes it (ISO 8601). The ledger's own schemas turn times into dates; the
 * tool takes the text and the ledger checks it, as for HTTP.
 */
const time = (what: string) => z.string().max(100).describe(`${what}, ISO 8601 (e.g. 2026-02-01 or 2026-02-01T09:00:00Z)`);

const looseObject = z.looseObject({});

export function createMcpServer(buses: McpBuses, caller: McpCaller, options: { version?: string; onUnexpected?: (error: unknown) => void } = {}): McpServer {
  const server = new McpServer({ name: 'factledger', version: options.version ?? '0.1.0' }, { capabilities: { tools: {}, resources: {} } });
  const run = async (scope: AccessScope, work: () => Promise<CallToolResult>): Promise<CallToolResult> => {
    try {
      await caller.allow(scope);
      const result = await actingAs(caller.actor, work);
      // A caller that may write but not read learns no other memory's words from a write's reply.
      if (scope === 'read' || result.isError || !result.structuredContent) return result;
      return (await caller.allow('read').then(
        () => true,
        () => false,
      ))
        ? result
        : ok(writerReply(result.structuredContent));
    } catch (error) {
      return toolError(error, options.onUnexpected);
    }
  };
  // Each tool's arguments are checked by its input schema (the ledger's own fields) and again by the ledger.
  const command = <I>(c: new (tenant: string, input: I, actor?: string) => object, input: I) => buses.commands.execute(new c(caller.tenant, input, caller.actor) as never);
  const query = <I>(q: new (tenant: string, input: I) => object, input: I) => buses.queries.execute(new q(caller.tenant, input) as never);

  const assert = fromLedger(assertSchema);
  const ingest = fromLedger(ingestMessageSchema);
  server.registerTool(
    'remember',
    {
      title: 'Remember',
      description: [
        'Store something the user (or a document, or a tool) said, so it can be recalled in later conversations.',
        'Either pass a raw message as `text` (with `speaker`, `source`): it goes through triage, extraction and admission gates, which decide what is worth keeping and supersede older values said in other words;',
        'or pass a structured fact `subject`, `relation`, `value` (with optional `text`, `validFrom`, `scope`): a new value for the same subject and relation supersedes the old one.',
        'Returns what was stored and its memory ids. Do not use it for questions, small talk, or to correct a value that was never true: use `correct` for that.',
      ].join(' '),
      inputSchema: {
        text: ingest.text.optional(),
        speaker: ingest.speaker.optional(),
        source: ingest.source,
        subject: assert.subject,
        relation: assert.relation,
        value: assert.value,
        validFrom: time('when it became true (default: now)').optional(),
        scope: assert.scope,
        dependsOn: assert.dependsOn,
      },
      outputSchema: looseObject,
    },
    (args) =>
      run('write', async () => {
        const structured = args.subject !== undefined || args.relation !== undefined || args.value !== undefined;
        if (structured) return ok(await command(AssertMemoryCommand, args));
        if (args.validFrom !== undefined || args.scope !== undefined || args.dependsOn !== undefined) {
          throw new InvalidInputError([{ path: 'subject', message: 'validFrom, scope and dependsOn go with a structured fact (subject, relation, value)' }]);
        }
        return ok(await command(IngestMessageCommand, { text: args.text, speaker: args.speaker, source: args.source }));
      }),
  );

  server.registerTool(
    'correct',
    {
      title: 'Correct a fact',
      description:
        'Say that a stored value was wrong all along (not that it changed): the new value replaces it over its whole valid period, and as-of reads from now on never show the wrong one. For a value that changed in the world, use `remember` instead.',
      inputSchema: {
        subject: assert.subject.unwrap(),
        relation: assert.relation.unwrap(),
        value: assert.value.unwrap(),
        text: assert.text,
        scope: assert.scope,
        validFrom: time('when the right value became true').optional(),
      },
      outputSchema: looseObject,
    },
    (args) => run('write', async () => ok(await command(AssertMemoryCommand, { ...args, mode: 'correction' }))),
  );

  const recallShape = fromLedger(recallQuerySchema);
  server.registerTool(
    'recall',
    {
      title: 'Recall',
      description:
        "Get what is known that is relevant to the user's latest message, within a token budget: a block to put in the prompt (framed as reference data, never instructions), the items with their memory ids, and a trace id for `explain`. Only values current at `validAt` (default now), as known at `knownAt`, are ever returned. Call it before answering anything that may depend on the user's past. Not for one exact value you can name by subject and relation: `fact` answers that precisely.",
      inputSchema: { query: recallShape.query, budgetTokens: recallShape.budgetTokens, validAt: time('true at (default: now)').optional(), knownAt: time('as known at (default: now)').optional() },
      outputSchema: looseObject,
    },
    (args) =>
      run('read', async () => {
        const result = (await query(AssembleContextQuery, args)) as { text: string };
        return ok(result, result.text || '(nothing relevant is remembered)');
      }),
  );

  const factShape = fromLedger(factQuerySchema);
  server.registerTool(
    'fact',
    {
      title: 'Look up a fact',
      description:
        "The exact value of one key (subject and relation, optionally scope) as of a valid time and a known time (both default to now): for 'what is X now' or 'what was X on that date'. Returns the value (or the set of values) and the versions it rests on. Not for open questions in the user's words: use `recall`.",
      inputSchema: {
        subject: factShape.subject,
        relation: factShape.relation,
        scope: factShape.scope,
        validAt: time('true at (default: now)').optional(),
        knownAt: time('as known at (default: now)').optional(),
      },
      outputSchema: looseObject,
    },
    (args) => run('read', async () => ok(await query(GetFactQuery, args))),
  );

  const historyShape = fromLedger(historyQuerySchema);
  server.registerTool(
    'history',
    {
      title: 'History of a fact',
      description:
        "A key's whole bitemporal history: every value it had, when it was true, when the ledger learned and stopped believing it, and what closed each row. For explaining how a value changed; for the current value use `fact`.",
      inputSchema: { subject: historyShape.subject, relation: historyShape.relation, scope: historyShape.scope },
      outputSchema: looseObject,
    },
    (args) => run('read', async () => ok(await query(GetHistoryQuery, args))),
  );

  const quarantine = fromLedger(quarantineSchema);
  server.registerTool(
    'forget',
    {
      title: 'Forget a memory (reversibly)',
      description:
        'Take one memory out of every recall and read (quarantine), with a reason, for noise or something the user asked to stop using. It stays on record and `restore` brings it back. This is not erasure of personal data (an operator does that).',
      inputSchema: { memoryId: quarantine.memoryId, reason: quarantine.reason },
      outputSchema: looseObject,
    },
    (args) => run('write', async () => ok(await command(QuarantineMemoryCommand, args))),
  );

  server.registerTool(
    'restore',
    {
      title: 'Restore a forgotten memory',
      description:
        'Undo `forget`: the memory is back in recall and reads (clipped where a newer value took over meanwhile). Returns the write. Not for bringing back a superseded value: say the value again with `remember`.',
      inputSchema: { memoryId: quarantine.memoryId },
      outputSchema: looseObject,
    },
    (args) => run('write', async () => ok(await command(RestoreMemoryCommand, args))),
  );

  server.registerTool(
    'confirm',
    {
      title: 'Confirm a memory marked unconfirmed',
      description:
        'A memory is marked unconfirmed when what it hung on changed (recall says so beside it: "unconfirmed: what it hung on changed, now …"). When the user says it still holds, confirm it: the mark is cleared. Nothing changes for a memory with no mark. Returns the write.',
      inputSchema: { memoryId: quarantine.memoryId, reason: quarantine.reason },
      outputSchema: looseObject,
    },
    (args) => run('write', async () => ok(await command(ConfirmMemoryCommand, args))),
  );

  const answer = fromLedger(recordAnswerSchema);
  server.registerTool(
    'record_answer',
    {
      title: 'Record an answer',
      description:
        'Record the answer you gave with the memory ids it relied on (from `recall`). If one of those memories later changes, the answer is reopened for review. Returns the answer id. Not for storing facts: use `remember`.',
      inputSchema: { question: answer.question, text: answer.text, cites: answer.cites },
      outputSchema: looseObject,
    },
    (args) => run('write', async () => ok(await command(RecordAnswerCommand, args))),
  );

  const claims = fromLedger(verifyClaimsSchema);
  server.registerTool(
    'verify',
    {
      title: 'Verify claims',
      description:
        'Check the claims of an answer against memory before sending it: each claim comes back supported, distorted (memory says otherwise), stale (it was true, but no longer) or fabricated (nothing supports it), with the memory it rests on. Pass each claim as `says`, optionally with the memory id it cites. It changes nothing; not for storing what the answer says.',
      inputSchema: { claims: claims.claims },
      outputSchema: looseObject,
    },
    (args) => run('read', async () => ok(await query(VerifyClaimsQuery, args))),
  );

  server.registerTool(
    'explain',
    {
      title: 'Explain a recall',
      description:
        'How one `recall` was assembled, stage by stage, with every score: why each memory was shown or left out. Pass the trace id `recall` returned. For debugging and for telling the user why something was (not) remembered; not something to put in a prompt.',
      inputSchema: { traceId: z.string().min(1).max(100) },
      outputSchema: looseObject,
    },
    (args) => run('read', async () => ok(await query(GetTraceQuery, { id: args.traceId }))),
  );

  // Resources, for a client that browses: a memory, a key's history, a trace.
  const read = async (uri: URL, work: () => Promise<unknown>) => {
    await caller.allow('read');
    return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(await work(), null, 2) }] };
  };
  server.registerResource(
    'memory',
    new ResourceTemplate('factledger://memories/{memoryId}', { list: undefined }),
    { title: 'A memory', description: 'One memory, in any status, with its provenance.', mimeType: 'application/json' },
    (uri, { memoryId }) => read(uri, () => query(GetMemoryQuery, { memoryId: String(memoryId) })),
  );
  server.registerResource(
    'history',
    new ResourceTemplate('factledger://history/{subject}/{relation}', { list: undefined }),
    { title: "A key's history", description: 'The bitemporal history of one subject and relation.', mimeType: 'application/json' },
    (uri, { subject, relation }) => read(uri, () => query(GetHistoryQuery, { subject: decodeURIComponent(String(subject)), relation: decodeURIComponent(String(relation)) })),
  );
  server.registerResource(
    'trace',
    new ResourceTemplate('factledger://traces/{traceId}', { list: undefined }),
    { title: 'A recall trace', description: 'How one recall was assembled.', mimeType: 'application/json' },
    (uri, { traceId }) => read(uri, () => query(GetTraceQuery, { id: String(traceId) })),
  );
  return server;
}
