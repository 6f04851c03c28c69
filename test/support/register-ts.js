/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS, loaded by child processes before anything else */
/**
 * Lets a plain Node child process of a test run the TypeScript sources directly: swc compiles each
 * file on require (with decorator metadata), and @factledger/* resolves to libs/<name>/src.
 */
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const swc = require('@swc/core');

const root = join(__dirname, '..', '..');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const m = /^@factledger\/([a-z-]+)$/.exec(request);
  return resolve.call(this, m ? join(root, 'libs', m[1], 'src', 'index.ts') : request, ...rest);
};
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript', decorators: true }, target: 'es2022', transform: { legacyDecorator: true, decoratorMetadata: true } },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};

module.exports = { root };
