// Jest settings shared by every package: TypeScript through swc, node environment, and the
// "source" export condition so a test imports workspace packages from src/ without a build.
// Imports of packages are lazy (swc's `lazy`: required when a binding is first used): jest loads
// each test file's modules anew, and a test that only calls the shared stack over HTTP need not
// load every service through the testkit (pricing/ and cart-checkout/: 108 → 101 CPU-seconds).
module.exports = {
  testEnvironment: 'node',
  testEnvironmentOptions: { customExportConditions: ['source', 'node', 'require', 'default'] },
  transform: {
    '^.+\\.(t|j)s$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs', lazy: true } }],
  },
  testMatch: ['**/?(*.)test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  moduleFileExtensions: ['ts', 'js', 'json'],
};
