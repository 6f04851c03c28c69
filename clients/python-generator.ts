/**
 * The Python client's operations from the contract (clients/openapi.json): one method per
 * operation, named after its operationId in snake_case, and the component schemas (and the inline
 * request bodies) as TypedDicts, so that an editor shows every field. No Python OpenAPI generator
 * can be installed here (PyPI is out of reach), and the client needs only the standard library, so
 * this one is ours: pure (a document in, the text of `_api.py` out), deterministic, small.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
type Schema = Record<string, any>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}
interface Operation {
  operationId?: string;
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface Entry {
  path: string;
  verb: string;
  op: Operation & { operationId: string };
}

const PYTHON_KEYWORDS = new Set([
  'False',
  'None',
  'True',
  'and',
  'as',
  'assert',
  'async',
  'await',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'else',
  'except',
  'finally',
  'for',
  'from',
  'global',
  'if',
  'import',
  'in',
  'is',
  'lambda',
  'nonlocal',
  'not',
  'or',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
  'yield',
]);
const VERBS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
// Names a method's own arguments already take.
const TAKEN = new Set(['self', 'body']);

/** camelCase → snake_case (`getOpenAPIKey` → `get_open_api_key`), with a trailing underscore for a Python keyword (`from` → `from_`). */
export function snake(name: string): string {
  const s = name
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  const word = /^[0-9]/.test(s) ? `_${s}` : s;
  return PYTHON_KEYWORDS.has(word) || TAKEN.has(word) ? `${word}_` : word;
}

/** A component's name as a Python class name (a contract may use `.` or `-` in them). */
function className(name: string): string {
  const s = name.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[0-9]/.test(s) || PYTHON_KEYWORDS.has(s) ? `_${s}` : s;
}

const pascal = (name: string): string =>
  snake(name)
    .replace(/_$/, '')
    .replace(/(^|_)([a-z0-9])/g, (_, _sep: string, c: string) => c.toUpperCase());

// A JSON string literal is a Python string literal too: the same escapes (\" \\ \n \uXXXX), and
// JSON.stringify escapes every control character, so no contract text can end the literal early.
const py = (text: string): string => JSON.stringify(text);
const refName = (ref: string): string => ref.replace(/^#\/components\/schemas\//, '');

/** A docstring: triple-quoted for the eye when the text allows it, a plain literal otherwise. */
function docstring(lines: string[], indent: string): string {
  const text = lines.join('\n');
  if (/\\|"|[\u0000-\u0009\u000b-\u001f\u007f]/.test(text)) return `${indent}${py(text)}`;
  const body = lines.map((line, i) => (i === 0 || line === '' ? line : `${indent}${line}`)).join('\n');
  return lines.length === 1 ? `${indent}"""${body}"""` : `${indent}"""${body}\n${indent}"""`;
}

/** The schemas of the module: the contract's components, then the inline request bodies named after their operation. */
class Types {
  readonly names = new Map<string, string>();
  readonly schemas = new Map<string, Schema>();
  /** The classes a request body uses: their fields say which ones the server requires. */
  readonly sent = new Set<string>();

  constructor(private readonly components: Record<string, Schema>) {
    for (const name of Object.keys(components).sort()) this.add(name, components[name]!);
  }

  add(name: string, schema: Schema): string {
    const python = className(name);
    if (this.schemas.has(python)) throw new Error(`two schemas are named ${python} in Python`);
    this.names.set(name, python);
    this.schemas.set(python, schema);
    return python;
  }

  /** A schema as a Python type; classes by name, quoted, since they may be defined further down. */
  of(schema: Schema | undefined): string {
    if (!schema) return 'Any';
    if (schema.$ref) {
      const name = this.names.get(refName(schema.$ref));
      return name ? py(name) : 'Any';
    }
    const wrap = (t: string): string => (schema.nullable && t !== 'Any' ? `Optional[${t}]` : t);
    if (schema.allOf?.length === 1) return wrap(this.of(schema.allOf[0]));
    if (schema.allOf || schema.anyOf || schema.oneOf) return wrap(this.properties(schema) ? 'Dict[str, Any]' : 'Any');
    if (Array.isArray(schema.enum) && schema.enum.length && schema.enum.every((v: unknown) => typeof v === 'string')) {
      return wrap(`Literal[${schema.enum.map((v: string) => py(v)).join(', ')}]`);
    }
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
        return wrap(`List[${this.of(schema.items)}]`);
      case 'object': {
        const values = typeof schema.additionalProperties === 'object' ? this.of(schema.additionalProperties) : 'Any';
        return wrap(`Dict[str, ${values}]`);
      }
      default:
        return 'Any';
    }
  }

  /** The fields of an object schema (an allOf's parts merged, later parts winning), or null when it has none. */
  properties(schema: Schema, depth = 0): { fields: Record<string, Schema>; required: Set<string> } | null {
    if (depth > 16) return null;
    if (schema.$ref) {
      const target = this.components[refName(schema.$ref)];
      return target ? this.properties(target, depth + 1) : null;
    }
    const fields: Record<string, Schema> = {};
    const required = new Set<string>();
    for (const part of schema.allOf ?? []) {
      const merged = this.properties(part, depth + 1);
      if (!merged) return null;
      Object.assign(fields, merged.fields);
      for (const name of merged.required) required.add(name);
    }
    Object.assign(fields, schema.properties ?? {});
    for (const name of schema.required ?? []) required.add(name);
    return Object.keys(fields).length ? { fields, required } : null;
  }

  /** One class: a TypedDict for an object with fields, an alias for anything else. */
  declare(python: string): string {
    const schema = this.schemas.get(python)!;
    const shape = this.properties(schema);
    if (!shape) {
      // A bare alias of another class would name it before it is defined: Any is as much as it can say.
      const type = this.of({ ...schema, nullable: false });
      return `${python} = ${type.startsWith('"') ? 'Any' : type}\n`;
    }
    const marked = this.sent.has(python);
    const fields = Object.entries(shape.fields).map(([field, s]) => `    ${py(field)}: ${this.of(s)},${marked && shape.required.has(field) ? '  # required' : ''}`);
    // The functional form, so any field name works (`from`, `type`); total=False because the
    // server leaves out its optional fields and a caller may leave out those with a default, and
    // Required[] is not in the standard library before Python 3.11.
    return `${python} = TypedDict(${py(python)}, {\n${fields.join('\n')}\n}, total=False)\n`;
  }
}

const optionalOf = (t: string): string => (t === 'Any' || t.startsWith('Optional[') ? t : `Optional[${t}]`);

function method(entry: Entry, body: string | null, types: Types): string {
  const { path, verb, op } = entry;
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const query = params.filter((p) => p.in === 'query');
  const success = Object.entries(op.responses ?? {})
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .find(([status]) => status.startsWith('2'))?.[1]?.content?.['application/json']?.schema;
  const args = ['self', ...pathParams.map((p) => `${snake(p.name)}: ${p.schema?.type === 'string' || !p.schema ? 'str' : types.of(p.schema)}`)];
  const keywords: string[] = [];
  if (body) keywords.push(op.requestBody?.required ? `body: ${body}` : `body: ${optionalOf(body)} = None`);
  // Required keywords first: Python would accept them in any order, but a reader expects them there.
  for (const p of query.filter((q) => q.required)) keywords.push(`${snake(p.name)}: ${types.of(p.schema)}`);
  for (const p of query.filter((q) => !q.required)) keywords.push(`${snake(p.name)}: ${optionalOf(types.of(p.schema))} = None`);
  const argNames = [...args, ...keywords].map((a) => a.split(':')[0]);
  const twice = argNames.find((a, i) => argNames.indexOf(a) !== i);
  if (twice) throw new Error(`${op.operationId} would take ${twice} twice`);

  const signature = [...args, ...(keywords.length ? ['*', ...keywords] : [])].join(', ');
  const pathArgs = `{${pathParams.map((p) => `${py(p.name)}: ${snake(p.name)}`).join(', ')}}`;
  const queryArgs = `{${query.map((p) => `${py(p.name)}: ${snake(p.name)}`).join(', ')}}`;
  const explained = query.filter((p) => p.description).map((p) => `${snake(p.name)}${snake(p.name) === p.name ? '' : ` (${p.name})`}: ${p.description}`);
  const doc = [op.summary ?? op.operationId, '', `${verb.toUpperCase()} ${path}`, ...(explained.length ? ['', ...explained] : [])];
  return [
    `    def ${snake(op.operationId)}(${signature}) -> ${success ? types.of(success) : 'Any'}:`,
    docstring(doc, '        '),
    `        return self._request(${py(verb.toUpperCase())}, ${py(path)}, ${pathArgs}, ${queryArgs}, ${body ? 'body' : 'None'})`,
    '',
  ].join('\n');
}

/** The text of `_api.py` for a contract: the same document gives the same text, byte for byte. */
export function generatePythonClient(document: { paths: Record<string, any>; components?: any }): string {
  const types = new Types(document.components?.schemas ?? {});
  const operations: Entry[] = [];
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(document.paths) as [string, Record<string, any>][]) {
    for (const verb of Object.keys(item).filter((key) => VERBS.has(key))) {
      // A path item may hold parameters for all its operations; the operation's own win.
      const own: Parameter[] = item[verb].parameters ?? [];
      const shared = ((item.parameters ?? []) as Parameter[]).filter((p) => !own.some((o) => o.name === p.name && o.in === p.in));
      const op: Operation = { ...item[verb], parameters: [...shared, ...own] };
      if (!op.operationId) throw new Error(`${verb.toUpperCase()} ${path} has no operationId`);
      const name = snake(op.operationId);
      if (seen.has(name)) throw new Error(`two operations are named ${name}: ${seen.get(name)} and ${op.operationId}`);
      seen.set(name, op.operationId);
      operations.push({ path, verb, op: op as Entry['op'] });
    }
  }
  operations.sort((a, b) => (snake(a.op.operationId) < snake(b.op.operationId) ? -1 : 1));

  // An inline object body gets a class of its own (`assembleContext` → AssembleContextBody), so
  // its fields show too; a body by $ref uses the component's.
  const bodies = new Map<Entry, string>();
  for (const entry of operations) {
    const schema = entry.op.requestBody?.content?.['application/json']?.schema;
    if (!schema) continue;
    const inline = !schema.$ref && types.properties(schema) ? types.add(`${pascal(entry.op.operationId)}Body`, schema) : null;
    const type = inline ? py(inline) : types.of(schema);
    if (inline) types.sent.add(inline);
    else if (schema.$ref && types.names.has(refName(schema.$ref))) types.sent.add(types.names.get(refName(schema.$ref))!);
    bodies.set(entry, type);
  }

  return [
    '# Generated from clients/openapi.json by `npm run clients:generate` (clients/python-generator.ts).',
    "# Do not edit by hand: change the server's routes or schemas, then generate again.",
    '"""The factledger HTTP API: one method per operation of its contract, on Client (see _client.py)."""',
    'from typing import Any, Dict, List, Literal, Optional, TypedDict',
    '',
    '',
    ...[...types.schemas.keys()].sort().map((python) => types.declare(python)),
    '',
    '#: operationId → (HTTP method, path) of every operation the contract names.',
    'OPERATIONS = {',
    ...operations.map(({ path, verb, op }) => `    ${py(op.operationId)}: (${py(verb.toUpperCase())}, ${py(path)}),`),
    '}',
    '',
    '',
    'class Operations:',
    '    """Every operation of the API; Client supplies _request (HTTP, the key, typed errors)."""',
    '',
    '    def _request(self, method: str, path: str, path_params: Dict[str, Any], query: Dict[str, Any], body: Any) -> Any:',
    '        raise NotImplementedError',
    '',
    ...operations.map((entry) => method(entry, bodies.get(entry) ?? null, types)),
  ].join('\n');
}
