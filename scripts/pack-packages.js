#!/usr/bin/env node
/**
 * Builds the packages a host installs, from this workspace, into dist/packages/<name>/ and packs
 * each with `npm pack` into dist/packs/ (what `npm install <tarball>` takes):
 *
 *   @factledger/core    the ledger, recall, the stores and embeddings, without Nest; subpaths
 *                       @factledger/core/<lib> for each library (domain, store, projections,
 *                       ledger, recall, embeddings, llm), the root being the ledger's
 *   @factledger/nest    FactLedgerModule and the CQRS commands and queries; Nest is a peer
 *   factledger          the server and the CLI (bin `factledger`), with the inspector's files, and
 *                       the test doubles of libs/testing that `factledger eval` runs on (fresh test
 *                       databases, the local KurrentDB protocol server): never in core
 *   @factledger/client  the typed HTTP client (openapi-fetch over the generated contract types)
 *
 * The sources compile once with declarations (tsconfig.packages.json, no path rewriting); then each
 * `@factledger/<lib>` specifier in the emitted .js and .d.ts becomes a relative path inside core, or
 * `@factledger/core/<lib>` outside it. A package's dependencies are the bare specifiers its code
 * loads, at the versions this workspace declares (or has installed, for a transitive one it loads
 * itself), so a package never lists what it does not load nor misses what it does.
 *
 *   npm run pack:packages            build and pack
 */
const { execFileSync } = require('node:child_process');
const { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join, relative, sep } = require('node:path');

const root = join(__dirname, '..');
const build = join(root, 'dist', 'pkg-build');
const out = join(root, 'dist', 'packages');
const packs = join(root, 'dist', 'packs');
const workspace = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const VERSION = workspace.version;

const CORE_LIBS = ['domain', 'store', 'projections', 'ledger', 'recall', 'embeddings', 'llm'];
/**
 * Packages core loads only when a host configures what needs them (the OpenAI SDK for an
 * OpenAI-compatible model or embedder, the KurrentDB client and its gRPC stack for KURRENTDB_URL):
 * optional peers, so a lean install (a Nest host on PGlite) has none of them in node_modules, and a
 * host that configures one installs it (OptionalPackageMissingError names it otherwise).
 */
const OPTIONAL_PEERS = ['@eventstore/db-client', 'openai'];
/** What a Nest host brings itself: peers of @factledger/nest, with the majors it is built and tested on. */
const NEST_PEERS = ['@nestjs/common', '@nestjs/core', '@nestjs/cqrs', 'reflect-metadata', 'rxjs'];

const PACKAGES = [
  {
    dir: 'core',
    name: '@factledger/core',
    description: 'factledger without Nest: the bitemporal fact ledger, recall, the PostgreSQL, PGlite and KurrentDB stores, offline embeddings',
    parts: CORE_LIBS.map((lib) => ({ from: `libs/${lib}/src`, to: lib })),
    extra: [{ from: 'migrations', to: 'migrations' }],
    // The root is the ledger's entry point; each library is a subpath of its own.
    entries: { '.': 'ledger', ...Object.fromEntries(CORE_LIBS.map((lib) => [`./${lib}`, lib])) },
    optionalPeers: OPTIONAL_PEERS,
  },
  {
    dir: 'nest',
    name: '@factledger/nest',
    description: 'factledger for NestJS hosts: FactLedgerModule and the ledger as CQRS commands and queries',
    parts: [{ from: 'libs/nest/src', to: '.' }],
    entries: { '.': '.' },
    peers: NEST_PEERS,
  },
  {
    dir: 'factledger',
    name: 'factledger',
    description: 'The factledger server (HTTP, MCP, the web inspector) and its command line',
    parts: [
      { from: 'apps/server/src', to: 'server' },
      { from: 'apps/cli/src', to: 'cli' },
      // `eval` runs on fresh test databases, and on a local KurrentDB when no KURRENTDB_URL is set.
      { from: 'libs/testing/src', to: 'testing' },
    ],
    // The inspector is looked for as dist/inspector beside the package.json (apps/server/src/inspector.ts).
    extra: [{ from: 'dist/inspector', to: 'dist/inspector', built: true }],
    entries: { '.': 'server' },
    // An application runs every configuration of its environment: it installs core's optional peers.
    alsoDepends: OPTIONAL_PEERS,
    bin: { factledger: 'bin/factledger.js', 'factledger-server': 'bin/factledger-server.js' },
  },
  {
    dir: 'client',
    name: '@factledger/client',
    description: 'Typed HTTP client for the factledger API, generated from its OpenAPI contract (openapi-fetch)',
    parts: [{ from: 'clients/typescript/src', to: '.' }],
    entries: { '.': '.' },
  },
];

const run = (cmd, args, cwd = root) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

function walk(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** Where each library ends up: core's folder for its libraries, the package itself for the others. */
function target(lib) {
  if (CORE_LIBS.includes(lib)) return { pkg: '@factledger/core', dir: join(out, 'core', lib) };
  if (lib === 'nest') return { pkg: '@factledger/nest', dir: join(out, 'nest') };
  if (lib === 'testing') return { pkg: 'factledger', dir: join(out, 'factledger', 'testing') };
  throw new Error(`no package holds @factledger/${lib}`);
}

const SPECIFIER = /((?:require|import)\s*\(\s*|from\s+|import\s+)(["'])([^"'\n]+)\2/g;

/** A file's `@factledger/<lib>` specifiers made to work from where it now lies. */
function rewrite(file, pkgName) {
  return readFileSync(file, 'utf8').replace(SPECIFIER, (whole, lead, quote, spec) => {
    const m = /^@factledger\/([a-z-]+)$/.exec(spec);
    if (!m) return whole;
    if (m[1] === 'testing' && pkgName !== 'factledger') throw new Error(`${file}: ${pkgName} must not load the test doubles (@factledger/testing)`);
    const t = target(m[1]);
    let next;
    if (t.pkg === pkgName) {
      const path = relative(dirname(file), t.dir).split(sep).join('/') || '.';
      next = `${path.startsWith('.') ? path : `./${path}`}/index${file.endsWith('.d.ts') ? '' : '.js'}`;
    } else {
      next = t.pkg === '@factledger/core' ? `@factledger/core/${m[1]}` : t.pkg;
    }
    return `${lead}${quote}${next}${quote}`;
  });
}

/** The package a bare specifier loads (`@scope/name/sub` → `@scope/name`), or null for node's own and relative ones. */
function packageOf(spec) {
  if (spec.startsWith('.') || spec.startsWith('node:') || spec.startsWith('/')) return null;
  const parts = spec.split('/');
  return spec.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

function versionOf(name) {
  if (name.startsWith('@factledger/') || name === 'factledger') return VERSION;
  const declared = workspace.dependencies?.[name] ?? workspace.devDependencies?.[name];
  if (declared) return declared;
  const manifest = join(root, 'node_modules', name, 'package.json');
  if (existsSync(manifest)) return `^${JSON.parse(readFileSync(manifest, 'utf8')).version}`;
  throw new Error(`no version known for ${name}`);
}

function makePackage(p) {
  const dir = join(out, p.dir);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const part of p.parts) {
    const from = join(build, part.from);
    for (const file of walk(from)) {
      if (!file.endsWith('.js') && !file.endsWith('.d.ts')) continue;
      const dest = join(dir, part.to, relative(from, file));
      mkdirSync(dirname(dest), { recursive: true });
      cpSync(file, dest);
    }
  }
  for (const e of p.extra ?? []) {
    const from = join(root, e.from);
    if (!existsSync(from)) throw new Error(`${e.from} is missing${e.built ? ': run npm run build first' : ''}`);
    cpSync(from, join(dir, e.to), { recursive: true });
  }
  const uses = new Set();
  for (const file of walk(dir)) {
    if (!file.endsWith('.js') && !file.endsWith('.d.ts')) continue;
    const text = rewrite(file, p.name);
    writeFileSync(file, text);
    for (const m of text.matchAll(SPECIFIER)) {
      const name = packageOf(m[3]);
      if (name && name !== p.name) uses.add(name);
    }
  }
  const optional = p.optionalPeers ?? [];
  for (const name of optional) if (!uses.has(name)) throw new Error(`${p.name} lists ${name} as an optional peer and loads it nowhere`);
  for (const name of p.alsoDepends ?? []) uses.add(name);
  const peers = [...(p.peers ?? []), ...optional];
  const sorted = (names) => Object.fromEntries([...names].sort().map((n) => [n, versionOf(n)]));
  const exportsMap = Object.fromEntries(
    Object.entries(p.entries).map(([sub, folder]) => {
      const base = folder === '.' ? '.' : `./${folder}`;
      return [sub, { types: `${base}/index.d.ts`, default: `${base}/index.js` }];
    }),
  );
  if (p.bin) {
    mkdirSync(join(dir, 'bin'), { recursive: true });
    writeFileSync(join(dir, 'bin', 'factledger.js'), "#!/usr/bin/env node\n// The command line: migrate, keys, ingest, context, eval, log, erase, mcp, worker…\nrequire('../cli/main.js');\n", {
      mode: 0o755,
    });
    writeFileSync(
      join(dir, 'bin', 'factledger-server.js'),
      "#!/usr/bin/env node\n// The HTTP server (PORT, HOST, DATABASE_URL or FACTLEDGER_DATA_DIR…; see the README's Configuration).\nrequire('../server/main.js');\n",
      { mode: 0o755 },
    );
  }
  const main = exportsMap['.'];
  const manifest = {
    name: p.name,
    version: VERSION,
    description: p.description,
    license: workspace.license,
    engines: workspace.engines,
    main: main.default,
    types: main.types,
    exports: { ...exportsMap, './package.json': './package.json' },
    // For TypeScript's older resolution (moduleResolution node10), which reads no `exports`: subpaths by folder.
    ...(Object.keys(exportsMap).length > 1
      ? {
          typesVersions: {
            '*': Object.fromEntries(
              Object.keys(exportsMap)
                .filter((s) => s !== '.')
                .map((s) => [s.slice(2), [`${s.slice(2)}/index.d.ts`]]),
            ),
          },
        }
      : {}),
    ...(p.bin ? { bin: p.bin } : {}),
    dependencies: sorted([...uses].filter((n) => !peers.includes(n))),
    ...(peers.length ? { peerDependencies: sorted(peers) } : {}),
    ...(optional.length ? { peerDependenciesMeta: Object.fromEntries([...optional].sort().map((n) => [n, { optional: true }])) } : {}),
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, 'README.md'), `# ${p.name}\n\n${p.description}.\n\nPart of factledger: see its README for the install and the first steps.\n`);
  const file = run('npm', ['pack', '--silent', '--pack-destination', packs], dir).trim().split('\n').pop();
  return join(packs, file);
}

function main() {
  rmSync(build, { recursive: true, force: true });
  run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.packages.json']);
  rmSync(packs, { recursive: true, force: true });
  mkdirSync(packs, { recursive: true });
  for (const p of PACKAGES) process.stdout.write(`${makePackage(p)}\n`);
}

if (require.main === module) main();
module.exports = { PACKAGES, packsDir: packs };
