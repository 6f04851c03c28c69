import { generatePythonClient, snake } from './python-generator';

describe('the Python client generator', () => {
  const doc = {
    paths: {
      '/v1/tenants/{tenant}/things/{thingId}': {
        get: {
          operationId: 'getThing',
          summary: 'One thing',
          parameters: [
            { name: 'tenant', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'thingId', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'from', in: 'query', required: true, schema: { type: 'string' } },
            { name: 'minPosition', in: 'query', schema: { type: 'integer', nullable: true } },
          ],
          responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
        },
        post: {
          operationId: 'addThing',
          requestBody: { required: false, content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          parameters: [
            { name: 'tenant', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'thingId', in: 'path', required: true, schema: { type: 'string' } },
          ],
        },
      },
    },
    components: { schemas: { Thing: { type: 'object', properties: { from: { type: 'string' }, parts: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } } } } },
  };

  it('writes one method per operation: path parameters first, query parameters as snake_case keywords, the body as body=', () => {
    const text = generatePythonClient(doc);
    expect(text).toContain('    def get_thing(self, tenant: str, thing_id: str, *, from_: str, min_position: Optional[int] = None) -> "Thing":');
    expect(text).toContain('return self._request("GET", "/v1/tenants/{tenant}/things/{thingId}", {"tenant": tenant, "thingId": thing_id}, {"from": from_, "minPosition": min_position}, None)');
    expect(text).toContain('    def add_thing(self, tenant: str, thing_id: str, *, body: Optional["Thing"] = None) -> Any:');
    expect(text).toContain('Thing = TypedDict("Thing", {\n    "from": str,\n    "parts": List["Thing"],\n}, total=False)');
    expect(text).toContain('    "addThing": ("POST", "/v1/tenants/{tenant}/things/{thingId}"),');
  });

  it('refuses an operation without an operationId, and two that would share a name', () => {
    const without = { paths: { '/x': { get: { summary: 'x' } } } };
    expect(() => generatePythonClient(without)).toThrow('GET /x has no operationId');
    const twins = { paths: { '/a': { get: { operationId: 'getA' } }, '/b': { get: { operationId: 'get_a' } } } };
    expect(() => generatePythonClient(twins)).toThrow('two operations are named get_a');
  });

  it('names as Python does: snake_case, a keyword with a trailing underscore', () => {
    expect(['assertMemory', 'getAuditDiff', 'from', 'validAt', 'class'].map(snake)).toEqual(['assert_memory', 'get_audit_diff', 'from_', 'valid_at', 'class_']);
  });
});
