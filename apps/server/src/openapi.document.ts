/**
 * The OpenAPI 3 document, generated from the routes themselves and the same zod schemas that
 * validate the input, so neither can drift from it. Each entry below names a controller method;
 * its HTTP method, its path and its success status are read from that method's Nest decorators
 * (`@Get`/`@Post`, the controller's prefix, `@HttpCode`). Building the document fails when a
 * route of a documented controller has no entry, when an entry names a method that is no route,
 * or when an entry's success status is not the one the route answers with.
 */
import { OpenAPIRegistry, OpenApiGeneratorV3, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { HttpStatus, RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import {
  answerQuerySchema,
  assertSchema,
  recordAnswerSchema,
  reopenedQuerySchema,
  retractSchema,
  reviewAnswerSchema,
  reviseAnswerSchema,
  verifyClaimsSchema,
  batchViewSchema,
  factViewSchema,
  historyViewSchema,
  memoryHistorySchema,
  memoryViewSchema,
  rollbackResultSchema,
  subjectViewSchema,
  writeResultSchema,
  answerSchema,
  answerViewSchema,
  answerWriteResultSchema,
  beliefDiffSchema,
  beliefViewSchema,
  erasureResultSchema,
  ingestResultSchema,
  revisionSchema,
  verificationSchema,
} from '@factledger/ledger';
import { recallQuerySchema } from '@factledger/recall';
import { z } from 'zod';
import {
  auditDiffQueryParams,
  auditQueryParams,
  batchParams,
  batchQueryParams,
  contextResultSchema,
  errorSchema,
  factQueryParams,
  healthSchema,
  historyQueryParams,
  ingestMessageBody,
  listMemoriesQuerySchema,
  memoryParams,
  memoryQueryParams,
  messageParams,
  quarantineBody,
  restoreBody,
  confirmBody,
  retractMemoryBody,
  retypeBody,
  rollbackBody,
  erasureBody,
  subjectParams,
  subjectQueryParams,
  tenantParams,
  traceParams,
  traceSchema,
} from './api.schemas';
import { AnswersController } from './answers.controller';
import { BatchesController } from './batches.controller';
import { ContextController } from './context.controller';
import { ErasuresController } from './erasures.controller';
import { FactsController } from './facts.controller';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { MemoriesController } from './memories.controller';
import { MessagesController } from './messages.controller';
import { OpenApiController } from './openapi.controller';
import { type RouteAccess, routeAccess } from './http/access';

/** What the document says of one route, beside the controller method that serves it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RouteDoc = Omit<RouteConfig, 'method' | 'path' | 'operationId'> & { handler: (...args: any[]) => unknown; operationId: string };

const json = (schema: z.ZodType, description: string): ResponseConfig => ({ description, content: { 'application/json': { schema } } });
const body = (schema: z.ZodType, required = true) => ({ required, content: { 'application/json': { schema } } });

const failures = {
  invalid: { 400: json(errorSchema, 'invalid_input: nothing was changed; `issues` names each field.') },
  unknownMemory: {
    404: json(errorSchema, 'unknown_memory: no such memory in this tenant.'),
    410: json(errorSchema, 'memory_erased: the memory was erased; `erased` says when and by which erasure.'),
  },
  unknownBatch: { 404: json(errorSchema, 'unknown_batch: no change in this tenant carries the label.') },
  unknownMessage: { 404: json(errorSchema, 'unknown_message: no message with this id was ingested in this tenant.') },
  conflict: {
    409: json(
      errorSchema,
      'cardinality_conflict, illegal_lifecycle, version_conflict, slot_taken (a restore into a slot another memory holds: `heldBy`) or command_id_reused (the command id named another command).',
    ),
  },
  lag: { 503: json(errorSchema, 'projection_lag: the read model has not reached minPosition yet; retry.') },
  /** Every route but the public ones: the API key (http/access.ts). */
  keyed: {
    401: json(errorSchema, 'unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`.'),
    403: json(errorSchema, 'forbidden: the key lacks the scope this route needs (read, write or admin).'),
    404: json(errorSchema, 'not_found: the key does not cover this tenant (the same answer whatever it holds), or the id names nothing in it.'),
    429: json(errorSchema, 'too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later.'),
  },
};

/** The API key every route but the public ones takes, as `Authorization: Bearer <key>` (`factledger keys create`). */
const API_KEY = 'apiKey';
/** The operation's field naming the scope its key needs (OpenAPI 3.0 keeps scopes for OAuth, so an extension says it). */
export const SCOPE_EXTENSION = 'x-factledger-scope';

const answerParams = z.object({ tenant: tenantParams.shape.tenant, answerId: z.string().min(1).max(200) });

const routeDocs = (): RouteDoc[] => [
  {
    handler: AnswersController.prototype.record,
    operationId: 'recordAnswer',
    summary: 'Record an answer with the memory versions it cited (pinned as they are now)',
    tags: ['answers'],
    request: { params: tenantParams, body: body(recordAnswerSchema) },
    responses: { 201: json(answerWriteResultSchema, 'Recorded (or, for a replayed command id, what was recorded then).'), ...failures.invalid, ...failures.unknownMemory, ...failures.conflict },
  },
  {
    handler: AnswersController.prototype.reopened,
    operationId: 'listReopenedAnswers',
    summary: 'Answers reopened by the re-review saga and not reviewed yet',
    tags: ['answers'],
    request: { params: tenantParams, query: reopenedQuerySchema },
    responses: { 200: json(z.array(answerSchema), 'The reopened answers, oldest first.'), ...failures.invalid, ...failures.lag },
  },
  {
    handler: AnswersController.prototype.answer,
    operationId: 'getAnswer',
    summary: 'One answer, its citations as they were and what became of each',
    tags: ['answers'],
    request: { params: answerParams, query: answerQuerySchema.omit({ answerId: true }) },
    responses: { 200: json(answerViewSchema, 'The answer, each citation with what became of it.'), 404: json(errorSchema, 'unknown_answer'), ...failures.lag },
  },
  {
    handler: AnswersController.prototype.review,
    operationId: 'reviewAnswer',
    summary: 'Mark a reopened answer reviewed',
    tags: ['answers'],
    request: { params: answerParams, body: body(reviewAnswerSchema.omit({ answerId: true }), false) },
    responses: { 200: json(answerWriteResultSchema, 'Reviewed; `changed` is false when it was not open.'), ...failures.invalid, ...failures.conflict },
  },
  {
    handler: AnswersController.prototype.revise,
    operationId: 'reviseAnswer',
    summary: "Optional (needs a language model): extract an answer's claims, verify them, rewrite it while they fail, up to a cap",
    tags: ['answers'],
    request: { params: tenantParams, body: body(reviseAnswerSchema) },
    responses: { 200: json(revisionSchema, 'The final answer, how many rewrites it took, and its verdicts.'), ...failures.invalid, 501: json(errorSchema, 'llm_not_configured') },
  },
  {
    handler: AnswersController.prototype.citing,
    operationId: 'listCitingAnswers',
    summary: 'The answers that cited this memory version',
    tags: ['answers'],
    request: { params: memoryParams, query: reopenedQuerySchema },
    responses: { 200: json(z.array(answerSchema), 'The answers, by id.'), ...failures.invalid, ...failures.lag },
  },
  {
    handler: AnswersController.prototype.verify,
    operationId: 'verifyClaims',
    summary: "Verify an answer's claims: supported, distorted, stale or fabricated, one verdict per claim",
    tags: ['answers'],
    request: { params: tenantParams, body: body(verifyClaimsSchema) },
    responses: { 200: json(verificationSchema, 'One verdict per claim, in order.'), ...failures.invalid },
  },
  {
    handler: ContextController.prototype.assemble,
    operationId: 'assembleContext',
    summary: 'Assemble the context for a prompt within a token budget (profile, fresh and detail channels)',
    tags: ['recall'],
    request: { params: tenantParams, body: body(recallQuerySchema) },
    responses: {
      200: json(contextResultSchema, 'The rendered block, its items and the id of its stored trace.'),
      ...failures.invalid,
      ...failures.lag,
    },
  },
  {
    handler: ContextController.prototype.trace,
    operationId: 'getTrace',
    summary: 'How one context was assembled, stage by stage',
    tags: ['recall'],
    request: { params: traceParams },
    responses: { 200: json(traceSchema, 'The stored trace.'), 404: json(errorSchema, 'unknown_trace: none in this tenant, or past retention.') },
  },
  {
    handler: MessagesController.prototype.ingest,
    operationId: 'ingestMessage',
    summary: 'Ingest a raw chat message: triage, extraction and admission gates; the admitted memories and the record of every decision in one append',
    tags: ['messages'],
    request: { params: tenantParams, body: body(ingestMessageBody) },
    responses: {
      201: json(ingestResultSchema, 'The triage, every candidate with its verdict, gates and reason, and what was stored (a retried messageId: the first record, replayed).'),
      ...failures.invalid,
      ...failures.conflict,
    },
  },
  {
    handler: MessagesController.prototype.message,
    operationId: 'getMessage',
    summary: 'The stored record of an ingested message: its triage and every admission decision',
    tags: ['messages'],
    request: { params: messageParams },
    responses: { 200: json(ingestResultSchema, 'The record.'), ...failures.unknownMessage },
  },
  {
    handler: MemoriesController.prototype.assert,
    operationId: 'assertMemory',
    summary: 'Assert a fact (subject, relation, value) or a prose memory',
    tags: ['memories'],
    request: { params: tenantParams, body: body(assertSchema) },
    responses: { 201: json(writeResultSchema, 'Decided and appended (or a no-op: see outcome).'), ...failures.invalid, ...failures.conflict },
  },
  ...(
    [
      [MemoriesController.prototype.quarantine, 'quarantineMemory', quarantineBody, false, 'Quarantine a memory: out of every read path, kept, restorable'],
      [MemoriesController.prototype.restore, 'restoreMemory', restoreBody, false, 'Restore a quarantined memory'],
      [MemoriesController.prototype.confirm, 'confirmMemory', confirmBody, false, 'Confirm a memory marked unconfirmed (what it hung on changed): it holds after all'],
      [MemoriesController.prototype.retype, 'retypeMemory', retypeBody, true, 'Give a memory another type (the original type is kept)'],
      [MemoriesController.prototype.retractMemory, 'retractMemory', retractMemoryBody, false, 'Retract a memory from validFrom on (default now)'],
    ] as const
  ).map(([handler, operationId, schema, required, summary]): RouteDoc => ({
    handler,
    operationId,
    summary,
    tags: ['memories'],
    request: { params: memoryParams, body: body(schema, required) },
    responses: { 200: json(writeResultSchema, 'The lifecycle change.'), ...failures.invalid, ...failures.unknownMemory, ...failures.conflict },
  })),
  {
    handler: MemoriesController.prototype.retract,
    operationId: 'retractByKey',
    summary: 'Retract a value by its key (subject, relation, value, scope) or by memoryId',
    tags: ['memories'],
    request: { params: tenantParams, body: body(retractSchema) },
    responses: { 200: json(writeResultSchema, 'The retraction.'), ...failures.invalid, ...failures.unknownMemory, ...failures.conflict },
  },
  {
    handler: BatchesController.prototype.batch,
    operationId: 'getBatch',
    summary: 'What a batch label covers: every event that carried it, and the memories they touched as they stand',
    tags: ['batches'],
    request: { params: batchParams, query: batchQueryParams },
    responses: { 200: json(batchViewSchema, 'The batch.'), ...failures.invalid, ...failures.unknownBatch, ...failures.lag },
  },
  {
    handler: BatchesController.prototype.rollback,
    operationId: 'rollbackBatch',
    summary: "Roll back a batch's lifecycle changes by compensating events (admin scope)",
    tags: ['batches'],
    request: { params: batchParams, body: body(rollbackBody, false) },
    responses: { 200: json(rollbackResultSchema, 'What was compensated, item by item.'), ...failures.invalid, ...failures.unknownBatch, ...failures.conflict },
  },
  {
    handler: ErasuresController.prototype.erase,
    operationId: 'erase',
    summary: "Erase a memory, a subject's memories or the tenant's: their words leave the log and every read model (admin scope)",
    tags: ['erasures'],
    request: { params: tenantParams, body: body(erasureBody) },
    responses: {
      201: json(erasureResultSchema, 'What was erased; the answers that cited it are reopened.'),
      ...failures.invalid,
      404: json(errorSchema, 'unknown_memory: no such memory in this tenant.'),
    },
  },
  {
    handler: MemoriesController.prototype.memory,
    operationId: 'getMemory',
    summary: 'One memory, in any status',
    tags: ['memories'],
    request: { params: memoryParams, query: memoryQueryParams },
    responses: { 200: json(memoryViewSchema, 'The memory.'), ...failures.invalid, ...failures.unknownMemory, ...failures.lag },
  },
  {
    handler: MemoriesController.prototype.memoryHistory,
    operationId: 'getMemoryHistory',
    summary: "The bitemporal history of a memory's stream (its key's, or a prose memory's own), with why each row closed",
    tags: ['memories'],
    request: { params: memoryParams, query: memoryQueryParams },
    responses: { 200: json(memoryHistorySchema, 'The history.'), ...failures.invalid, ...failures.unknownMemory, ...failures.lag },
  },
  {
    handler: MemoriesController.prototype.list,
    operationId: 'listMemories',
    summary: 'The active memories, newest first',
    tags: ['memories'],
    request: { params: tenantParams, query: listMemoriesQuerySchema },
    responses: { 200: json(memoryViewSchema.array(), 'Active memories.'), ...failures.invalid, ...failures.lag },
  },
  {
    handler: FactsController.prototype.fact,
    operationId: 'getFact',
    summary: 'A key (subject, relation, scope) as of valid time and transaction time',
    tags: ['facts'],
    request: { params: tenantParams, query: factQueryParams },
    responses: { 200: json(factViewSchema, 'The value(s) holding at (validAt, knownAt).'), ...failures.invalid, ...failures.lag },
  },
  {
    handler: FactsController.prototype.subject,
    operationId: 'getSubject',
    summary: 'Every fact of a subject as of valid time and transaction time',
    tags: ['facts'],
    request: { params: subjectParams, query: subjectQueryParams },
    responses: { 200: json(subjectViewSchema, 'The facts holding at (validAt, knownAt).'), ...failures.invalid, ...failures.lag },
  },
  {
    handler: FactsController.prototype.history,
    operationId: 'getHistory',
    summary: "A key's full bitemporal history, with the event that opened and closed each version",
    tags: ['facts'],
    request: { params: tenantParams, query: historyQueryParams },
    responses: { 200: json(historyViewSchema, 'Every version, oldest first.'), ...failures.invalid, ...failures.lag },
  },
  {
    handler: FactsController.prototype.audit,
    operationId: 'getAudit',
    summary: 'What the ledger believed: every memory of the tenant (or of one subject) as known at knownAt, true at validAt',
    tags: ['audit'],
    request: { params: tenantParams, query: auditQueryParams },
    responses: { 200: json(beliefViewSchema, 'The memories in the read paths then.'), ...failures.invalid, ...failures.lag },
  },
  {
    handler: FactsController.prototype.auditDiff,
    operationId: 'getAuditDiff',
    summary: 'What changed in what the ledger believed between two transaction times, each change with its events, batch and actor',
    tags: ['audit'],
    request: { params: tenantParams, query: auditDiffQueryParams },
    responses: { 200: json(beliefDiffSchema, 'Every key whose believed versions differ, both sides.'), ...failures.invalid, ...failures.lag },
  },
  {
    handler: HealthController.prototype.health,
    operationId: 'getHealth',
    summary: 'Readiness: store, migrations, projection lag',
    tags: ['operations'],
    responses: { 200: json(healthSchema, 'Ready.'), 503: json(healthSchema, 'Not ready.') },
  },
  {
    handler: MetricsController.prototype.metrics,
    operationId: 'getMetrics',
    summary: 'Prometheus metrics: requests, commands, appends, consumer lag, recall latency, admission decisions, process memory',
    tags: ['operations'],
    responses: { 200: { description: 'The Prometheus text exposition format.', content: { 'text/plain': { schema: { type: 'string' } } } } },
  },
  {
    handler: OpenApiController.prototype.openapi,
    operationId: 'getOpenApi',
    summary: 'This document',
    tags: ['operations'],
    responses: { 200: { description: 'The OpenAPI 3 document.', content: { 'application/json': { schema: { type: 'object' } } } } },
  },
];

const METHODS: Partial<Record<RequestMethod, RouteConfig['method']>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.DELETE]: 'delete',
  [RequestMethod.PATCH]: 'patch',
};

/** A route as Nest serves it: method, OpenAPI path (`:id` → `{id}`), success status, and the method that handles it. */
export interface ServedRoute {
  method: RouteConfig['method'];
  path: string;
  status: number;
  handler: unknown;
  /** What the route asks of a request's key (http/access.ts routeAccess: the rule the door applies). */
  access: RouteAccess;
  name: string;
}

/** Every route of `controllers`, from their decorators. */
export function servedRoutes(controllers: readonly (abstract new (...args: never[]) => unknown)[]): ServedRoute[] {
  const out: ServedRoute[] = [];
  for (const controller of controllers) {
    const prefix = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    for (const key of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[key];
      if (key === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
      const verb = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
      const method = METHODS[verb];
      if (!method) throw new Error(`${controller.name}.${key}: no OpenAPI method for request method ${RequestMethod[verb]}`);
      const segments = [prefix, String(Reflect.getMetadata(PATH_METADATA, handler))].flatMap((p) => p.split('/')).filter(Boolean);
      const path = `/${segments.map((p) => p.replace(/^:(.+)$/, '{$1}')).join('/')}`;
      const status = (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ?? (verb === RequestMethod.POST ? HttpStatus.CREATED : HttpStatus.OK);
      out.push({ method, path, status, handler, access: routeAccess(handler, controller, method), name: `${controller.name}.${key}` });
    }
  }
  return out;
}

/** The routes of `controllers` with their entries, checked both ways (see the module's note). */
export function documentedRoutes(controllers: readonly (abstract new (...args: never[]) => unknown)[], entries: readonly RouteDoc[]): RouteConfig[] {
  const routes = servedRoutes(controllers);
  const out: RouteConfig[] = [];
  for (const route of routes) {
    const docs = entries.filter((d) => d.handler === route.handler);
    if (docs.length !== 1) throw new Error(`${route.name} (${route.method.toUpperCase()} ${route.path}) has ${docs.length} OpenAPI entries, not one`);
    const { handler: _, ...doc } = docs[0]!;
    const success = Object.keys(doc.responses)
      .map(Number)
      .filter((code) => code >= 200 && code < 300);
    if (!success.includes(route.status)) throw new Error(`${route.name} answers ${route.status}, but its OpenAPI entry documents ${success.join(', ') || 'no success status'}`);
    if (out.some((o) => o.operationId === doc.operationId)) throw new Error(`${route.name}: the operationId ${doc.operationId} names another route too`);
    // A route that is not public takes a key: the security requirement, the scope the door asks
    // for, and its answers beside the route's own (a route's own 404 says more).
    const { access } = route;
    const keyed =
      access.door === 'public'
        ? { security: [] }
        : { security: [{ [API_KEY]: [] }], ...(access.door === 'scope' ? { [SCOPE_EXTENSION]: access.scope } : {}), responses: { ...failures.keyed, ...doc.responses } };
    out.push({ ...doc, ...keyed, method: route.method, path: route.path });
  }
  for (const doc of entries) {
    if (!routes.some((r) => r.handler === doc.handler)) throw new Error(`an OpenAPI entry (${doc.summary ?? 'no summary'}) names a method that serves no route`);
  }
  return out;
}

/** The document of the routes `controllers` serve (the server's: apiControllers). */
export function buildOpenApiDocument(controllers: readonly (abstract new (...args: never[]) => unknown)[]): ReturnType<OpenApiGeneratorV3['generateDocument']> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', API_KEY, { type: 'http', scheme: 'bearer', description: 'An API key: `factledger keys create --tenant <tenant> --scopes read,write`.' });
  for (const route of documentedRoutes(controllers, routeDocs())) registry.registerPath(route);
  return new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'factledger',
      version: '0.1.0',
      description: 'Long-term memory for AI agents: an event-sourced, bitemporal fact ledger. Every route is scoped to a tenant.',
    },
  });
}
