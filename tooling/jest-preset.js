// Jest settings shared by every package: TypeScript through swc, node environment, and the
// "source" export condition so a test imports workspace packages from src/ without a build.
module.exports = {
  testEnvironment: 'node',
  testEnvironmentOptions: { customExportConditions: ['source', 'node', 'require', 'default'] },
  transform: {
    '^.+\\.(t|j)s$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  testMatch: ['**/?(*.)test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  moduleFileExtensions: ['ts', 'js', 'json'],
};
