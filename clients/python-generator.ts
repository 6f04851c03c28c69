/**
 * The Python client's operations from the contract (clients/openapi.json): one method per
 * operation, named after its operationId in snake_case, and the component schemas as TypedDicts,
 * so that an editor shows every field. No Python OpenAPI generator can be installed here (PyPI is
 * out of reach), and the client needs only the standard library, so this one is ours: pure (a
 * document in, the text of `_api.py` out), deterministic, small.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
type Schema = Record<string, any>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  operationId: string;
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

const PYTHON_KEYWORDS = new Set([
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except',
  'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try',
  'while', 'with', 'yield', 'body',
]);

/** camelCase → snake_case, with a trailing underscore for a Python keyword (`from` → `from_`). */
export function snake(name: string): string {
  const s = name.replace(/[^A-Za-z0-9]+/g, '_').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  return PYTHON_KEYWORDS.has(s) ? `${s}_` : s;
}

const py = (text: string): string => JSON.stringify(text);
const refName = (ref: string): string => ref.replace(/^#\/components\/schemas\//, '');

/** A schema as a Python type; component schemas by name (quoted: they may come later). */
function pyType(schema: Schema | undefined, names: ReadonlySet<string>): string {
  if (!schema) return 'Any';
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return names.has(name) ? py(name) : 'Any';
  }
  const wrap = (t: string): string => (schema.nullable ? `Optional[${t}]` : t);
  if (schema.allOf?.length === 1) return wrap(pyType(schema.allOf[0], names));
  if (schema.anyOf || schema.oneOf) return wrap('Any');
  switch (schema.type) {
    case 'string':
      return wrap('str');
    case 'integer':
      return wrap('int');
    case 'number':
      return wrap('float');
    case 'boolean':
      return wrap('bool');
    case 'array':
      return wrap(`List[${pyType(schema.items, names)}]`);
    case 'object':
      return wrap('Dict[str, Any]');
    default:
      return 'Any';
  }
}

function typedDict(name: string, schema: Schema, names: ReadonlySet<string>): string {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  if (schema.type !== 'object' || properties.length === 0) return `${name} = ${schema.$ref ? 'Any' : pyType(schema, names)}\n`;
  const fields = properties.map(([field, s]) => `    ${py(field)}: ${pyType(s, names)},`).join('\n');
  // The functional form: any field name works, `from` and `type` included; total=False since the
  // server may leave a field out (its optional ones) and a caller may too (those with a default).
  return `${name} = TypedDict(${py(name)}, {\n${fields}\n}, total=False)\n`;
}

const optionalOf = (t: string): string => (t.startsWith('Optional[') ? t : `Optional[${t}]`);

function method(path: string, verb: string, op: Operation, names: ReadonlySet<string>): string {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const query = params.filter((p) => p.in === 'query');
  const body = op.requestBody?.content?.['application/json']?.schema;
  const success = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1]?.content?.['application/json']?.schema;
  const args = ['self', ...pathParams.map((p) => `${snake(p.name)}: str`)];
  const keywords: string[] = [];
  if (body) keywords.push(op.requestBody?.required ? `body: ${pyType(body, names)}` : `body: ${optionalOf(pyType(body, names))} = None`);
  const required = query.filter((p) => p.required);
  const optional = query.filter((p) => !p.required);
  for (const p of required) keywords.push(`${snake(p.name)}: ${pyType(p.schema, names)}`);
  for (const p of optional) keywords.push(`${snake(p.name)}: ${optionalOf(pyType(p.schema, names))} = None`);
  const signature = [...args, ...(keywords.length ? ['*', ...keywords] : [])].join(', ');
  const pathArgs = `{${pathParams.map((p) => `${py(p.name)}: ${snake(p.name)}`).join(', ')}}`;
  const queryArgs = `{${query.map((p) => `${py(p.name)}: ${snake(p.name)}`).join(', ')}}`;
  const returns = success ? pyType(success, names) : 'Any';
  return [
    `    def ${snake(op.operationId)}(${signature}) -> ${returns}:`,
    `        ${py(`${op.summary ?? op.operationId} (${verb.toUpperCase()} ${path})`)}`,
    `        return self._request(${py(verb.toUpperCase())}, ${py(path)}, ${pathArgs}, ${queryArgs}, ${body ? 'body' : 'None'})`,
    '',
  ].join('\n');
}

export function generatePythonClient(contract: object): string {
  const document = contract as OpenApiDocument;
  const schemas = document.components?.schemas ?? {};
  const names = new Set(Object.keys(schemas));
  const operations = Object.entries(document.paths)
    .flatMap(([path, item]) => Object.entries(item).map(([verb, op]) => ({ path, verb, op })))
    .sort((a, b) => a.op.operationId.localeCompare(b.op.operationId));
  const seen = new Set<string>();
  for (const { op, path, verb } of operations) {
    if (!op.operationId) throw new Error(`${verb.toUpperCase()} ${path} has no operationId`);
    if (seen.has(snake(op.operationId))) throw new Error(`two operations are named ${snake(op.operationId)}`);
    seen.add(snake(op.operationId));
  }
  return [
    '# Generated from clients/openapi.json by `npm run clients:generate` (clients/python-generator.ts). Do not edit.',
    '"""The factledger HTTP API: one method per operation of its contract, on Client (see _client.py)."""',
    'from typing import Any, Dict, List, Optional, TypedDict',
    '',
    '',
    ...Object.keys(schemas)
      .sort()
      .map((name) => typedDict(name, schemas[name]!, names)),
    '',
    '#: operationId → (method, path) of every operation the contract names.',
    'OPERATIONS = {',
    ...operations.map(({ path, verb, op }) => `    ${py(op.operationId)}: (${py(verb.toUpperCase())}, ${py(path)}),`),
    '}',
    '',
    '',
    'class Operations:',
    '    """Every operation of the API; Client supplies _request (HTTP, the key, typed errors)."""',
    '',
    '    def _request(self, method: str, path: str, path_params: Dict[str, str], query: Dict[str, Any], body: Any) -> Any:',
    '        raise NotImplementedError',
    '',
    ...operations.map(({ path, verb, op }) => method(path, verb, op, names)),
  ].join('\n');
}
