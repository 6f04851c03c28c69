/* eslint-disable @typescript-eslint/no-require-imports -- a plain CommonJS child process that installs its own TypeScript hook before requiring anything else */
/**
 * A child process for the worker fail-over test: `factledger worker <args>` from the TypeScript
 * sources (register-ts.js), on DATABASE_URL.
 */
const { join } = require('node:path');
const { root } = require('./register-ts');

process.argv = [process.argv[0], 'factledger', 'worker', ...process.argv.slice(2)];
require(join(root, 'apps', 'cli', 'src', 'main.ts'));
