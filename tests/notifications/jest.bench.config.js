// The webhook benchmark: `cd tests && npx jest -c notifications/jest.bench.config.js`. It boots a
// stack of its own, so it skips the shared stack of the test suite.
module.exports = {
  preset: '@rental/tooling',
  rootDir: __dirname,
  testMatch: ['<rootDir>/*.bench.ts'],
  testTimeout: 600_000,
  maxWorkers: 1,
};
