import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contractFiles } from './generate';
import { TYPESCRIPT_SCHEMA } from './typescript-schema';

/** The committed contract and the clients generated from it are what the server's routes give now (npm run clients:generate). */
describe('the clients contract', () => {
  const root = join(__dirname, '..');

  it('is up to date: openapi.json and the Python operations', () => {
    for (const file of contractFiles(root)) expect([file.path, readFileSync(file.path, 'utf8') === file.text]).toEqual([file.path, true]);
  });

  it('gives the committed TypeScript types (openapi-typescript over the committed openapi.json, in a plain node process)', () => {
    const script = `
      const { default: openapiTS, astToString } = require('openapi-typescript');
      const [doc, options, header] = [require(process.argv[1]), JSON.parse(process.argv[2]), process.argv[3]];
      openapiTS(doc, options).then((ast) => process.stdout.write(header + astToString(ast)));`;
    const generated = execFileSync(process.execPath, ['-e', script, join(root, 'clients/openapi.json'), JSON.stringify(TYPESCRIPT_SCHEMA.options), TYPESCRIPT_SCHEMA.header], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(generated === readFileSync(join(root, 'clients/typescript/src/schema.ts'), 'utf8')).toBe(true);
  });
});
