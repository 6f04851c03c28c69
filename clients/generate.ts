/**
 * Writes the clients' contract and what is generated from it: `clients/openapi.json` (the server's
 * OpenAPI document, built from its routes and zod schemas without starting it), the TypeScript
 * client's types (`clients/typescript/src/schema.ts`, by openapi-typescript) and the Python
 * client's operations (`clients/python/factledger_client/_api.py`, by python-generator.ts).
 *
 *   npm run clients:generate            write them
 *   npm run clients:generate -- --check exit 1 when a committed file differs from what the contract gives
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiControllers } from '../apps/server/src/api-controllers';
import { buildOpenApiDocument } from '../apps/server/src/openapi.document';
import { generatePythonClient } from './python-generator';
import { typescriptSchema } from './typescript-schema';

export interface GeneratedFile {
  path: string;
  text: string;
}

/** The contract and the Python operations, as the routes give them now. */
export function contractFiles(root: string): GeneratedFile[] {
  const document = buildOpenApiDocument(apiControllers);
  return [
    { path: join(root, 'clients/openapi.json'), text: `${JSON.stringify(document, null, 2)}\n` },
    { path: join(root, 'clients/python/factledger_client/_api.py'), text: generatePythonClient(document) },
  ];
}

/** Every generated file: the contract's, and the TypeScript types generated from it. */
export async function generatedClientFiles(root: string): Promise<GeneratedFile[]> {
  return [...contractFiles(root), { path: join(root, 'clients/typescript/src/schema.ts'), text: await typescriptSchema(buildOpenApiDocument(apiControllers)) }];
}

async function main(): Promise<void> {
  const root = join(__dirname, '..', '..');
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const file of await generatedClientFiles(root)) {
    let current: string | null = null;
    try {
      current = readFileSync(file.path, 'utf8');
    } catch {
      current = null;
    }
    if (current === file.text) continue;
    if (check) stale.push(file.path);
    else writeFileSync(file.path, file.text);
  }
  if (stale.length) {
    process.stderr.write(`out of date with the contract (run npm run clients:generate): ${stale.join(', ')}\n`);
    process.exitCode = 1;
  }
}

if (require.main === module) void main();
