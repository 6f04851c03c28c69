/**
 * The OpenAPI document is generated from the routes: every route the server serves (but MCP's and
 * the fallback's) is in it, with the scope its key needs (or `security: []` where it takes none), at the method, path and success status its decorators give, and the generator refuses a
 * route without an entry, an entry without a route, and a success status the route does not answer.
 */
import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { z } from 'zod';
import { AppModule } from './app.module';
import { FallbackController } from './fallback.controller';
import { NeedsScope } from './http/access';
import { McpController } from './mcp.controller';
import { apiControllers } from './api-controllers';
import { buildOpenApiDocument, documentedRoutes, SCOPE_EXTENSION, servedRoutes } from './openapi.document';

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
  @NeedsScope('read')
  check() {
    return {};
  }
}

const ok = (description: string) => ({ description, content: { 'application/json': { schema: z.object({}) } } });

describe('the OpenAPI document', () => {
  it('covers every controller the server mounts except MCP and the fallback, and each of their routes once, as served', () => {
    const mounted = AppModule.forRoot().controllers ?? [];
    expect(new Set(apiControllers)).toEqual(new Set(mounted.filter((c) => c !== McpController && c !== FallbackController)));
    // The fallback takes what no route matched: it must come last.
    expect(mounted.at(-1)).toBe(FallbackController);
    const doc = buildOpenApiDocument(apiControllers);
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item as object).map((method) => `${method} ${path}`));
    const served = servedRoutes(apiControllers).map((r) => `${r.method} ${r.path}`);
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
    // A route that is not public also answers for its key (401, 403, 404 and 429), says it takes one, and names its scope: the method's, or @NeedsScope's.
    expect(routes.map((r) => [r.method, r.path, r.operationId, Object.keys(r.responses), r.security, (r as Record<string, unknown>)[SCOPE_EXTENSION]])).toEqual([
      ['get', '/v1/things/{thing}/parts', 'listParts', ['200', '401', '403', '404', '429'], [{ apiKey: [] }], 'read'],
      ['post', '/v1/things/{thing}/parts', 'addPart', ['201', '401', '403', '404', '429'], [{ apiKey: [] }], 'write'],
      ['post', '/v1/things/{thing}/checks', 'checkThing', ['200', '401', '403', '404', '429'], [{ apiKey: [] }], 'read'],
    ]);
  });

  it('gives every operation of the document its own operationId, and every route the key and scope it takes, but the public ones', () => {
    const doc = buildOpenApiDocument(apiControllers);
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.values(item as Record<string, { operationId?: string; security?: unknown }>).map((op) => ({ path, ...op })));
    const ids = operations.map((o) => o.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const open = operations.filter((o) => Array.isArray(o.security) && o.security.length === 0);
    expect(open.map((o) => o.path).sort()).toEqual(['/health', '/metrics', '/openapi.json']);
    const scopes = operations.filter((o) => !open.includes(o)).map((o) => [o.path, o.security, (o as Record<string, unknown>)[SCOPE_EXTENSION]]);
    expect(scopes.filter(([, security, scope]) => JSON.stringify(security) !== '[{"apiKey":[]}]' || !['read', 'write', 'admin'].includes(scope as string))).toEqual([]);
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
