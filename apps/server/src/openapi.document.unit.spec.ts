/**
 * The OpenAPI document is generated from the routes: every route the server serves (but MCP's) is
 * in it, at the method, path and success status its decorators give, and the generator refuses a
 * route without an entry, an entry without a route, and a success status the route does not answer.
 */
import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { z } from 'zod';
import { AppModule } from './app.module';
import { McpController } from './mcp.controller';
import { apiControllers } from './api-controllers';
import { buildOpenApiDocument, documentedRoutes, servedRoutes } from './openapi.document';

@Controller('v1/things/:thing')
class ThingsController {
  @Get('parts')
  parts() {
    return [];
  }

  @Post('parts')
  add() {
    return {};
  }

  @Post('checks')
  @HttpCode(200)
  check() {
    return {};
  }
}

const ok = (description: string) => ({ description, content: { 'application/json': { schema: z.object({}) } } });

describe('the OpenAPI document', () => {
  it('covers every controller the server mounts except MCP, and each of their routes once, as served', () => {
    const mounted = AppModule.forRoot().controllers ?? [];
    expect(new Set(apiControllers())).toEqual(new Set(mounted.filter((c) => c !== McpController)));
    const doc = buildOpenApiDocument();
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item as object).map((method) => `${method} ${path}`));
    const served = servedRoutes(apiControllers()).map((r) => `${r.method} ${r.path}`);
    expect(operations.sort()).toEqual([...new Set(served)].sort());
    expect(served).toContain('post /v1/tenants/{tenant}/memories/{memoryId}/retype');
    // The success status is the route's: a POST answers 201 unless it says otherwise.
    expect(Object.keys((doc.paths['/v1/tenants/{tenant}/memories'] as { post: { responses: object } }).post.responses)).toContain('201');
    expect(Object.keys((doc.paths['/v1/tenants/{tenant}/retractions'] as { post: { responses: object } }).post.responses)).toContain('200');
  });

  it('reads method, path and status from the decorators', () => {
    const routes = documentedRoutes(
      [ThingsController],
      [
        { handler: ThingsController.prototype.parts, operationId: 'listParts', summary: 'parts', responses: { 200: ok('the parts') } },
        { handler: ThingsController.prototype.add, operationId: 'addPart', summary: 'add', responses: { 201: ok('added') } },
        { handler: ThingsController.prototype.check, operationId: 'checkThing', summary: 'check', responses: { 200: ok('checked') } },
      ],
    );
    // A /v1 route also answers for its key: 401, 403, 404 and 429, and says it takes one.
    expect(routes.map((r) => [r.method, r.path, r.operationId, Object.keys(r.responses), r.security])).toEqual([
      ['get', '/v1/things/{thing}/parts', 'listParts', ['200', '401', '403', '404', '429'], [{ apiKey: [] }]],
      ['post', '/v1/things/{thing}/parts', 'addPart', ['201', '401', '403', '404', '429'], [{ apiKey: [] }]],
      ['post', '/v1/things/{thing}/checks', 'checkThing', ['200', '401', '403', '404', '429'], [{ apiKey: [] }]],
    ]);
  });

  it('gives every operation of the document its own operationId, and every /v1 route the key it takes', () => {
    const doc = buildOpenApiDocument();
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.values(item as Record<string, { operationId?: string; security?: unknown }>).map((op) => ({ path, ...op })));
    const ids = operations.map((o) => o.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations.filter((o) => o.path.startsWith('/v1/') && !o.security)).toEqual([]);
    expect(operations.filter((o) => !o.path.startsWith('/v1/') && o.security)).toEqual([]);
    expect(doc.components?.securitySchemes).toEqual({ apiKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
  });

  it('refuses a route without an entry, an entry without a route, and a success status the route does not answer', () => {
    const parts = { handler: ThingsController.prototype.parts, operationId: 'listParts', summary: 'parts', responses: { 200: ok('the parts') } };
    const add = { handler: ThingsController.prototype.add, operationId: 'addPart', summary: 'add', responses: { 201: ok('added') } };
    const check = { handler: ThingsController.prototype.check, operationId: 'checkThing', summary: 'check', responses: { 200: ok('checked') } };
    expect(() => documentedRoutes([ThingsController], [parts, add])).toThrow('ThingsController.check (POST /v1/things/{thing}/checks) has 0 OpenAPI entries');
    expect(() => documentedRoutes([ThingsController], [parts, add, check, { handler: () => undefined, operationId: 'stray', summary: 'stray', responses: { 200: ok('x') } }])).toThrow(
      'an OpenAPI entry (stray) names a method that serves no route',
    );
    expect(() => documentedRoutes([ThingsController], [parts, { ...add, responses: { 200: ok('added') } }, check])).toThrow('ThingsController.add answers 201, but its OpenAPI entry documents 200');
    expect(() => documentedRoutes([ThingsController], [parts, { ...add, operationId: 'listParts' }, check])).toThrow('the operationId listParts names another route too');
  });
});
