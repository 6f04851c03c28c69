/**
 * The examples as a newcomer runs them: the packages packed (scripts/pack-packages.js), each
 * example's own clean project installing the tarballs and its other dependencies from the npm
 * registry, compiling under strict TypeScript, and running its checks. They need the registry and
 * a built checkout, so they run only with FL_EXAMPLES=1 (`npm run examples`; `.ci/run` does);
 * otherwise they are reported as skipped, never as passed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..');
const enabled = process.env.FL_EXAMPLES === '1';
if (!enabled) console.log('examples skipped: they install the packed packages from the npm registry; run them with npm run examples (FL_EXAMPLES=1)');

/** What a lean install leaves out: core's optional peers (loaded only when configured) and the gRPC stack they bring. */
const OPTIONAL_ONLY = ['@eventstore/db-client', '@grpc/grpc-js', 'protobufjs', 'google-protobuf', 'openai'];

const npm = (cwd: string, ...args: string[]) => spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 300_000 });

(enabled ? describe : describe.skip)('the examples, installed from the packed packages', () => {
  beforeAll(() => {
    execFileSync(process.execPath, [join(root, 'scripts', 'pack-packages.js')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  }, 300_000);

  it.each([
    ['nest-host', 'a Nest host: assert, supersede, as-of at two transaction times, quarantine, rollback, history'],
    ['agent-loop', 'an agent turn through the TypeScript client: messages in, context out, an answer recorded and reopened'],
  ])(
    '%s: %s',
    (name) => {
      const dir = join(root, 'examples', name);
      rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
      rmSync(join(dir, 'dist'), { recursive: true, force: true });
      const install = npm(dir, 'install', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error');
      expect([install.status, install.stderr]).toEqual([0, expect.any(String)]);
      // The Nest host on PGlite configures neither KurrentDB nor an OpenAI-compatible service.
      if (name === 'nest-host') {
        expect(OPTIONAL_ONLY.filter((pkg) => existsSync(join(dir, 'node_modules', pkg)))).toEqual([]);
        const core = JSON.parse(readFileSync(join(dir, 'node_modules', '@factledger', 'core', 'package.json'), 'utf8'));
        expect(core.peerDependenciesMeta).toEqual({ '@eventstore/db-client': { optional: true }, openai: { optional: true } });
      }
      const build = npm(dir, 'run', 'build');
      expect([build.status, build.stdout]).toEqual([0, expect.any(String)]);
      const start = npm(dir, 'start');
      expect([start.status, start.stderr]).toEqual([0, expect.any(String)]);
      expect(start.stdout).toMatch(/^ok: /m);
      expect(start.stdout).not.toMatch(/FAILED/);
    },
    600_000,
  );
});
