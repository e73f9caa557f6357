// Integration tests run against one shared stack booted in globalSetup; tests that stop or kill
// processes boot a stack of their own.
module.exports = {
  preset: '@rental/tooling',
  rootDir: __dirname,
  globalSetup: '<rootDir>/support/global-setup.ts',
  globalTeardown: '<rootDir>/support/global-teardown.ts',
  setupFiles: ['<rootDir>/support/internal-caller.ts'],
  testTimeout: 60_000,
  maxWorkers: 2,
};
