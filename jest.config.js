/** Jest runs TypeScript through swc with decorator metadata on (NestJS DI needs it). */
const { readFileSync } = require('node:fs');
const swc = JSON.parse(readFileSync(`${__dirname}/.swcrc`, 'utf8'));
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  if (!alias.startsWith('@factledger/')) continue;
  moduleNameMapper[`^${alias}$`] = `<rootDir>/${target}`;
}

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/test', '<rootDir>/clients', '<rootDir>/examples'],
  // The examples install their own packages (examples/*/node_modules): never tests of ours.
  testPathIgnorePatterns: ['/node_modules/'],
  modulePathIgnorePatterns: ['<rootDir>/examples/[^/]+/node_modules', '<rootDir>/examples/[^/]+/dist', '<rootDir>/dist'],
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }] },
  moduleNameMapper,
  testTimeout: 60000,
  maxWorkers: 2,
};
