import { spawnSync } from 'node:child_process';
import { apiControllers } from '../apps/server/src/api-controllers';
import { buildOpenApiDocument } from '../apps/server/src/openapi.document';
import { generatePythonClient, snake } from './python-generator';

const hasPython = spawnSync('python3', ['--version']).status === 0;
if (!hasPython) console.log('the generated Python is not parsed: no python3 on PATH');
const withPython = hasPython ? it : it.skip;

/** Runs the generated module in python3 and answers the names of Operations' methods, or what went wrong. */
function operationsIn(text: string): { status: number | null; methods: string[]; stderr: string } {
  const script = [
    'import ast, json, sys',
    'text = sys.stdin.read()',
    'tree = ast.parse(text)',
    'exec(compile(tree, "_api.py", "exec"), {})',
    '[operations] = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Operations"]',
    'print(json.dumps([node.name for node in operations.body if isinstance(node, ast.FunctionDef) and node.name != "_request"]))',
  ].join('\n');
  const run = spawnSync('python3', ['-c', script], { input: text, encoding: 'utf8' });
  return { status: run.status, methods: run.status === 0 ? (JSON.parse(run.stdout) as string[]) : [], stderr: run.stderr };
}

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
            { name: 'minPosition', in: 'query', description: 'Never older than this.', schema: { type: 'integer', nullable: true } },
            { name: 'status', in: 'query', schema: { type: 'string', enum: ['active', 'quarantined'] } },
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
      '/v1/tenants/{tenant}/notes': {
        post: {
          operationId: 'addNote',
          summary: 'Says "hi" with a \\ and """ in it',
          parameters: [{ name: 'tenant', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', properties: { text: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['text'] } } },
          },
          responses: { 201: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing.WithNote' } } } } },
        },
      },
    },
    components: {
      schemas: {
        Thing: { type: 'object', properties: { from: { type: 'string' }, parts: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } } },
        'Thing.WithNote': { allOf: [{ $ref: '#/components/schemas/Thing' }, { type: 'object', properties: { note: { type: 'string', nullable: true } } }] },
        Anything: { type: 'object', additionalProperties: { nullable: true } },
      },
    },
  };

  it('writes one method per operation: path parameters first, query parameters as snake_case keywords, the body as body=', () => {
    const text = generatePythonClient(doc);
    expect(text).toContain(
      '    def get_thing(self, tenant: str, thing_id: str, *, from_: str, min_position: Optional[int] = None, status: Optional[Literal["active", "quarantined"]] = None) -> "Thing":\n' +
        '        """One thing\n\n        GET /v1/tenants/{tenant}/things/{thingId}\n\n        min_position (minPosition): Never older than this.\n        """\n' +
        '        return self._request("GET", "/v1/tenants/{tenant}/things/{thingId}", {"tenant": tenant, "thingId": thing_id}, {"from": from_, "minPosition": min_position, "status": status}, None)\n',
    );
    expect(text).toContain('    def add_thing(self, tenant: str, thing_id: str, *, body: Optional["Thing"] = None) -> Any:');
    expect(text).toContain('Thing = TypedDict("Thing", {\n    "from": str,\n    "parts": List["Thing"],\n}, total=False)');
    expect(text).toContain('    "addThing": ("POST", "/v1/tenants/{tenant}/things/{thingId}"),');
  });

  it('gives inline request bodies and allOf schemas classes of their own, and quotes what the contract says', () => {
    const text = generatePythonClient(doc);
    expect(text).toContain('    def add_note(self, tenant: str, *, body: "AddNoteBody") -> "Thing_WithNote":');
    expect(text).toContain('AddNoteBody = TypedDict("AddNoteBody", {\n    "text": str,  # required\n    "tags": List[str],\n}, total=False)');
    expect(text).toContain('Thing_WithNote = TypedDict("Thing_WithNote", {\n    "from": str,\n    "parts": List["Thing"],\n    "note": Optional[str],\n}, total=False)');
    expect(text).toContain('Anything = Dict[str, Any]');
    expect(text).toContain('        "Says \\"hi\\" with a \\\\ and \\"\\"\\" in it\\n\\nPOST /v1/tenants/{tenant}/notes"\n');
  });

  withPython('writes Python that python3 parses and runs, one method per operation', () => {
    expect(operationsIn(generatePythonClient(doc))).toEqual({ status: 0, methods: ['add_note', 'add_thing', 'get_thing'], stderr: '' });
  });

  it('gives the same text whatever order the contract lists its paths in', () => {
    const reversed = { ...doc, paths: Object.fromEntries(Object.entries(doc.paths).reverse()) };
    expect(generatePythonClient(reversed)).toBe(generatePythonClient(doc));
  });

  it('refuses an operation without an operationId, and two that would share a name', () => {
    const without = { paths: { '/x': { get: { summary: 'x' } } } };
    expect(() => generatePythonClient(without)).toThrow('GET /x has no operationId');
    const twins = { paths: { '/a': { get: { operationId: 'getA' } }, '/b': { get: { operationId: 'get_a' } } } };
    expect(() => generatePythonClient(twins)).toThrow('two operations are named get_a');
  });

  it('names as Python does: snake_case, a keyword or a name the method takes itself with a trailing underscore', () => {
    expect(['assertMemory', 'getAuditDiff', 'getOpenAPIKey', 'from', 'validAt', 'class', 'body'].map(snake)).toEqual([
      'assert_memory',
      'get_audit_diff',
      'get_open_api_key',
      'from_',
      'valid_at',
      'class_',
      'body_',
    ]);
  });

  describe("on the server's contract", () => {
    const contract = buildOpenApiDocument(apiControllers);
    const operationIds = Object.values(contract.paths).flatMap((item) => Object.values(item as Record<string, { operationId?: string }>).map((op) => op.operationId!));

    withPython('writes valid Python with one method per operation', () => {
      const found = operationsIn(generatePythonClient(contract));
      expect([found.status, found.stderr]).toEqual([0, '']);
      expect(found.methods).toEqual(operationIds.map(snake).sort());
    });

    it('lists every operation in OPERATIONS and says it is generated', () => {
      const text = generatePythonClient(contract);
      expect(text.startsWith('# Generated from clients/openapi.json by `npm run clients:generate`')).toBe(true);
      for (const id of operationIds) expect(text).toContain(`    "${id}": (`);
      expect(text).toContain('    def get_fact(self, tenant: str, *, subject: str, relation: str, valid_at: Optional[str] = None, known_at: Optional[str] = None');
    });
  });
});
