/**
 * The OpenAPI 3 document, generated from the same zod schemas that validate the input, so the
 * document and the validation cannot drift apart.
 */
import { OpenAPIRegistry, OpenApiGeneratorV3, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import {
  answerQuerySchema,
  assertSchema,
  recordAnswerSchema,
  reopenedQuerySchema,
  retractSchema,
  reviewAnswerSchema,
  reviseAnswerSchema,
  verifyClaimsSchema,
} from '@factledger/ledger';
import { recallQuerySchema } from '@factledger/recall';
import { z } from 'zod';
import {
  batchParams,
  contextResultSchema,
  errorSchema,
  factQueryParams,
  factViewSchema,
  healthSchema,
  historyQueryParams,
  historyViewSchema,
  ingestMessageBody,
  ingestResultSchema,
  listMemoriesQuerySchema,
  memoryParams,
  memoryQueryParams,
  memoryHistorySchema,
  memoryViewSchema,
  messageParams,
  quarantineBody,
  restoreBody,
  retractMemoryBody,
  retypeBody,
  rollbackBody,
  rollbackResultSchema,
  erasureBody,
  erasureResultSchema,
  subjectParams,
  subjectQueryParams,
  subjectViewSchema,
  tenantParams,
  traceParams,
  traceSchema,
  writeResultSchema,
} from './api.schemas';

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
  conflict: { 409: json(errorSchema, 'cardinality_conflict, illegal_lifecycle or version_conflict.') },
  lag: { 503: json(errorSchema, 'projection_lag: the read model has not reached minPosition yet; retry.') },
};

const answerParams = z.object({ tenant: tenantParams.shape.tenant, answerId: z.string().min(1).max(200) });
const anyJson = (description: string) => json(z.record(z.string(), z.unknown()), description);

const ROUTES: RouteConfig[] = [
  {
    method: 'post',
    path: '/v1/tenants/{tenant}/answers',
    summary: 'Record an answer with the memory versions it cited (pinned as they are now)',
    tags: ['answers'],
    request: { params: tenantParams, body: body(recordAnswerSchema) },
    responses: { 201: anyJson('{answerId, position, changed}'), ...failures.invalid, ...failures.unknownMemory },
  },
  {
    method: 'get',
    path: '/v1/tenants/{tenant}/answers',
    summary: 'Answers reopened by the re-review saga and not reviewed yet',
    tags: ['answers'],
    request: { params: tenantParams, query: reopenedQuerySchema },
    responses: { 200: json(z.array(z.record(z.string(), z.unknown())), 'The reopened answers, oldest first.'), ...failures.invalid, ...failures.lag },
  },
  {
    method: 'get',
    path: '/v1/tenants/{tenant}/answers/{answerId}',
    summary: 'One answer, its citations as they were and what became of each',
    tags: ['answers'],
    request: { params: answerParams, query: answerQuerySchema.omit({ answerId: true }) },
    responses: { 200: anyJson('The answer.'), 404: json(errorSchema, 'unknown_answer'), ...failures.lag },
  },
  {
    method: 'post',
    path: '/v1/tenants/{tenant}/answers/{answerId}/review',
    summary: 'Mark a reopened answer reviewed',
    tags: ['answers'],
    request: { params: answerParams, body: body(reviewAnswerSchema.omit({ answerId: true }), false) },
    responses: { 200: anyJson('{answerId, position, changed}'), ...failures.invalid, ...failures.conflict },
  },
  {
    method: 'post',
    path: '/v1/tenants/{tenant}/answers/revisions',
    summary: "Optional (needs a language model): extract an answer's claims, verify them, rewrite it while they fail, up to a cap",
    tags: ['answers'],
    request: { params: tenantParams, body: body(reviseAnswerSchema) },
    responses: { 200: anyJson('{answer, revisions, verdicts, settled}'), ...failures.invalid, 501: json(errorSchema, 'llm_not_configured') },
  },
  {
    method: 'get',
    path: '/v1/tenants/{tenant}/memories/{memoryId}/answers',
    summary: 'The answers that cited this memory version',
    tags: ['answers'],
    request: { params: memoryParams, query: reopenedQuerySchema },
    responses: { 200: json(z.array(z.record(z.string(), z.unknown())), 'The answers, by id.'), ...failures.invalid, ...failures.lag },
  },
  {
    method: 'post',
    path: '/v1/tenants/{tenant}/verifications',
    summary: "Verify an answer's claims: supported, distorted, stale or fabricated, one verdict per claim",
    tags: ['answers'],
    request: { params: tenantParams, body: body(verifyClaimsSchema) },
    responses: { 200: anyJson('{verdicts: [{verdict, says, memory, current, reason}]}'), ...failures.invalid },
  },
  {
    method: 'post',
    path: '/v1/tenants/{tenant}/context',
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
    method: 'get',
    path: '/v1/tenants/{tenant}/traces/{id}',
    summary: 'How one context was assembled, stage by stage',
    tags: ['recall'],
    request: { params: traceParams },
    responses: { 200: json(traceSchema, 'The stored trace.'), 404: json(errorSchema, 'unknown_trace: none in this tenant, or past retention.') },
  },
  {
    method: 'post',
    path: '/v1/tenants/{tenant}/messages',
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
    method: 'get',
    path: '/v1/tenants/{tenant}/messages/{messageId}',
    summary: 'The stored record of an ingested message: its triage and every admission decision',
    tags: ['messages'],
    request: { params: messageParams },
    responses: { 200: json(ingestResultSchema, 'The record.'), ...failures.unknownMessage },
  },
  {
    method: 'post',
    path: '/v1/tenants/{tenant}/memories',
    summary: 'Assert a fact (subject, relation, value) or a prose memory',
    tags: ['memories'],
    request: { params: tenantParams, body: body(assertSchema) },
    responses: { 201: json(writeResultSchema, 'Decided and appended (or a no-op: see outcome).'), ...failures.invalid, ...failures.conflict },
  },
  ...(
    [
      ['quarantine', quarantineBody, false, 'Quarantine a memory: out of every read path, kept, restorable'],
      ['restore', restoreBody, false, 'Restore a quarantined memory'],
      ['retype', retypeBody, true, 'Give a memory another type (the original type is kept)'],
      ['retract', retractMemoryBody, false, 'Retract a memory from validFrom on (default now)'],
    ] as const
  ).map(
    ([action, schema, required, summary]): RouteConfig => ({
      method: 'post',
      path: `/v1/tenants/{tenant}/memories/{memoryId}/${action}`,
      summary,
      tags: ['memories'],
      request: { params: memoryParams, body: body(schema, required) },
      responses: { 200: json(writeResultSchema, 'The lifecycle change.'), ...failures.invalid, ...failures.unknownMemory, ...failures.conflict },
    }),
  ),
  {
    method: 'post',
    path: '/v1/tenants/{tenant}/retractions',
    summary: 'Retract a value by its key (subject, relation, value, scope) or by memoryId',
    tags: ['memories'],
    request: { params: tenantParams, body: body(retractSchema) },
    responses: { 200: json(writeResultSchema, 'The retraction.'), ...failures.invalid, ...failures.unknownMemory, ...failures.conflict },
  },
  {
    method: 'post',
    path: '/v1/tenants/{tenant}/batches/{batch}/rollback',
    summary: "Roll back a batch's lifecycle changes by compensating events",
    tags: ['batches'],
    request: { params: batchParams, body: body(rollbackBody, false) },
    responses: { 200: json(rollbackResultSchema, 'What was compensated, item by item.'), ...failures.invalid, ...failures.unknownBatch, ...failures.conflict },
  },
  {
    method: 'post',
    path: '/v1/tenants/{tenant}/erasures',
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
    method: 'get',
    path: '/v1/tenants/{tenant}/memories/{memoryId}',
    summary: 'One memory, in any status',
    tags: ['memories'],
    request: { params: memoryParams, query: memoryQueryParams },
    responses: { 200: json(memoryViewSchema, 'The memory.'), ...failures.invalid, ...failures.unknownMemory, ...failures.lag },
  },
  {
    method: 'get',
    path: '/v1/tenants/{tenant}/memories/{memoryId}/history',
    summary: "The bitemporal history of a memory's stream (its key's, or a prose memory's own), with why each row closed",
    tags: ['memories'],
    request: { params: memoryParams, query: memoryQueryParams },
    responses: { 200: json(memoryHistorySchema, 'The history.'), ...failures.invalid, ...failures.unknownMemory, ...failures.lag },
  },
  {
    method: 'get',
    path: '/v1/tenants/{tenant}/memories',
    summary: 'The active memories, newest first',
    tags: ['memories'],
    request: { params: tenantParams, query: listMemoriesQuerySchema },
    responses: { 200: json(memoryViewSchema.array(), 'Active memories.'), ...failures.invalid, ...failures.lag },
  },
  {
    method: 'get',
    path: '/v1/tenants/{tenant}/facts',
    summary: 'A key (subject, relation, scope) as of valid time and transaction time',
    tags: ['facts'],
    request: { params: tenantParams, query: factQueryParams },
    responses: { 200: json(factViewSchema, 'The value(s) holding at (validAt, knownAt).'), ...failures.invalid, ...failures.lag },
  },
  {
    method: 'get',
    path: '/v1/tenants/{tenant}/subjects/{subject}',
    summary: 'Every fact of a subject as of valid time and transaction time',
    tags: ['facts'],
    request: { params: subjectParams, query: subjectQueryParams },
    responses: { 200: json(subjectViewSchema, 'The facts holding at (validAt, knownAt).'), ...failures.invalid, ...failures.lag },
  },
  {
    method: 'get',
    path: '/v1/tenants/{tenant}/history',
    summary: "A key's full bitemporal history, with the event that opened and closed each version",
    tags: ['facts'],
    request: { params: tenantParams, query: historyQueryParams },
    responses: { 200: json(historyViewSchema, 'Every version, oldest first.'), ...failures.invalid, ...failures.lag },
  },
  {
    method: 'get',
    path: '/health',
    summary: 'Readiness: store, migrations, projection lag',
    tags: ['operations'],
    responses: { 200: json(healthSchema, 'Ready.'), 503: json(healthSchema, 'Not ready.') },
  },
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    tags: ['operations'],
    responses: { 200: { description: 'The OpenAPI 3 document.', content: { 'application/json': { schema: { type: 'object' } } } } },
  },
];

export function buildOpenApiDocument(): ReturnType<OpenApiGeneratorV3['generateDocument']> {
  const registry = new OpenAPIRegistry();
  for (const route of ROUTES) registry.registerPath(route);
  return new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'factledger',
      version: '0.1.0',
      description: 'Long-term memory for AI agents: an event-sourced, bitemporal fact ledger. Every route is scoped to a tenant.',
    },
  });
}
