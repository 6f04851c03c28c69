/**
 * The controllers of the HTTP API: what AppModule mounts (with MCP beside them, at /mcp, which has
 * its own protocol: docs/mcp.md) and what the OpenAPI document covers (AppModule passes this list
 * to buildOpenApiDocument).
 */
import { AnswersController } from './answers.controller';
import { BatchesController } from './batches.controller';
import { ContextController } from './context.controller';
import { ErasuresController } from './erasures.controller';
import { FactsController } from './facts.controller';
import { HealthController } from './health.controller';
import { MemoriesController } from './memories.controller';
import { MessagesController } from './messages.controller';
import { MetricsController } from './metrics.controller';
import { OpenApiController } from './openapi.controller';

export const apiControllers = [
  MemoriesController,
  MessagesController,
  AnswersController,
  FactsController,
  BatchesController,
  ErasuresController,
  ContextController,
  HealthController,
  MetricsController,
  OpenApiController,
] as const;
