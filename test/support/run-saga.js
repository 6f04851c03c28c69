/* eslint-disable @typescript-eslint/no-require-imports -- a plain CommonJS child process that installs its own TypeScript hook before requiring anything else */
/**
 * A child process for the saga kill test: runs the TypeScript sources directly (register-ts.js),
 * opens DATABASE_URL and runs the re-review saga one event per page until killed or done.
 */
require('./register-ts');

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
