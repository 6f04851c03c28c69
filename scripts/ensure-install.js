#!/usr/bin/env node
// Lets `npm start` and `npm test` work on a fresh checkout: installs from the lockfile once,
// when node_modules is missing or older than the lockfile.
const { existsSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { execSync } = require('node:child_process');

const root = join(__dirname, '..');
const marker = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');
if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs) {
  console.error('factledger: installing dependencies from package-lock.json (first run)…');
  execSync('npm ci --no-audit --no-fund --loglevel=error', { cwd: root, stdio: 'inherit' });
}
