/** `factledger --help` and every command's help name only documents that exist in the repository. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const DOCUMENT = /(?:\.\.\/)*(?:[\w-]+\/)*[\w-]+\.md\b/g;

describe('factledger --help', () => {
  it('points at documents that exist, in the help itself and in every help text of the sources', () => {
    const help = execFileSync(process.execPath, [join(root, 'test', 'support', 'run-cli.js'), '--help'], { encoding: 'utf8' });
    expect(help).toContain('docs/packages.md');
    // Every command's description and options, as written in the sources (their comments aside).
    const sources = [join(__dirname), join(__dirname, 'eval')].flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
        .map((f) => readFileSync(join(dir, f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')),
    );
    const named = [...new Set([help, ...sources].flatMap((text) => text.match(DOCUMENT) ?? []))];
    expect(named.length).toBeGreaterThan(2);
    expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  }, 60_000);
});
