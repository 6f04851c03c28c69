#!/usr/bin/env node
/**
 * `npm start` builds first; this skips the build when nothing it reads changed
 * since the last build that went through here: the TypeScript and the inspector's sources (apps,
 * libs, bench, clients), their tsconfig and vite files, package.json and the lockfile. A folder's
 * own time counts too, so a file deleted or renamed is a change. The stamp is dist/.build-stamp,
 * dated when that build started (an edit made while it ran is seen next time) and written only when
 * it succeeded. Any doubt (no stamp, no server entry point) builds.
 *
 *   node scripts/build-if-changed.js     build when needed (`npm run build --silent`), else nothing
 */
const { execSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, utimesSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const stamp = join(root, 'dist', '.build-stamp');
const entry = join(root, 'dist', 'apps', 'server', 'src', 'main.js');
const TREES = ['apps', 'libs', 'bench', 'clients'];
const ROOT_FILES = ['package.json', 'package-lock.json', ...readdirSync(root).filter((f) => /^tsconfig.*\.json$/.test(f))];
const SKIP = new Set(['node_modules', 'dist', '.nx', '__pycache__']);
// What the build does not read: tests, and the Python client's files.
const IGNORED = /\.(spec|contract|fixture)\.ts$|\.py$/;

/** The newest modification time under `dir` (files and folders), or after `than` as soon as one is. */
function newest(dir, than) {
  let latest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (latest > than) return latest;
    if (SKIP.has(entry.name) || IGNORED.test(entry.name)) continue;
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path, than) : statSync(path).mtimeMs);
  }
  return latest;
}

function upToDate() {
  if (!existsSync(stamp) || !existsSync(entry)) return false;
  const built = statSync(stamp).mtimeMs;
  for (const file of ROOT_FILES) if (existsSync(join(root, file)) && statSync(join(root, file)).mtimeMs > built) return false;
  return TREES.every((tree) => !existsSync(join(root, tree)) || newest(join(root, tree), built) <= built);
}

if (!upToDate()) {
  const started = new Date();
  execSync('npm run build --silent', { cwd: root, stdio: 'inherit' });
  writeFileSync(stamp, `built from the sources as they were at ${started.toISOString()}\n`);
  utimesSync(stamp, started, started);
}
