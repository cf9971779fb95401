/**
 * E2E specs: boot the real AppModule against a real database.
 * Embedded SQLite in a fresh temp file by default; MySQL/MariaDB when DATABASE_URL names one.
 * Run in band: the files share one database whose migrations run once in globalSetup.
 */
module.exports = {
  ...require('../jest.swc.js'),
  rootDir: '..',
  roots: ['<rootDir>/test'],
  testRegex: '\\.e2e-spec\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'json'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  maxWorkers: 1,
  testTimeout: 30000,
};
