/* eslint-disable @typescript-eslint/no-require-imports -- a plain CommonJS child process that installs its own TypeScript hook before requiring anything else */
/**
 * A child process for the saga kill test: runs the TypeScript sources directly (swc compiles each
 * file on require, with decorator metadata; @factledger/* resolves to libs/<name>/src), opens
 * DATABASE_URL and runs the re-review saga one event per page until killed or done.
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

const { ledgerOn, ReReviewSaga } = require('@factledger/ledger');
const { AnswerReader } = require('@factledger/projections');
const { openDatabase } = require('@factledger/store');

(async () => {
  const database = await openDatabase({ url: process.env.DATABASE_URL });
  const handle = ledgerOn(database);
  const saga = new ReReviewSaga(database.db, { answers: handle.answers, reader: new AnswerReader(database.db), runner: handle.runner }, undefined, 1);
  process.stdout.write('ready\n');
  const reopened = await saga.catchUp();
  process.stdout.write(`done ${reopened}\n`);
  await database.close();
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
