#!/usr/bin/env node
// Entry point of `npx factledger`: builds the project first if it has not been built yet.
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { execSync } = require('node:child_process');

const root = join(__dirname, '..');
const main = join(root, 'dist', 'apps', 'cli', 'src', 'main.js');
if (!existsSync(main)) execSync('npm run build --silent', { cwd: root, stdio: 'inherit' });
require(main);
