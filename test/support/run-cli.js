/* eslint-disable @typescript-eslint/no-require-imports -- a plain CommonJS child process that installs its own TypeScript hook before requiring anything else */
/**
 * A child process for tests that run the real command line: `factledger <args>` from the
 * TypeScript sources (register-ts.js), configured by the environment it is given.
 */
const { join } = require('node:path');
const { root } = require('./register-ts');

process.argv = [process.argv[0], 'factledger', ...process.argv.slice(2)];
require(join(root, 'apps', 'cli', 'src', 'main.ts'));
