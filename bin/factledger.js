#!/usr/bin/env node
// Entry point of `npx factledger`: builds the project first if it has not been built yet.
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { execSync } = require('node:child_process');

const root = join(__dirname, '..');
const main = join(root, 'dist', 'apps', 'cli', 'src', 'main.js');
// Its output goes to stderr: on stdout `factledger mcp` speaks the protocol and nothing else.
if (!existsSync(main)) execSync('npm run build --silent', { cwd: root, stdio: ['ignore', 2, 2] });
require(main);
