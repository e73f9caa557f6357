import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const root = path.dirname(fileURLToPath(import.meta.url));

/** Every workspace package as { name, dir }, read from the root manifest's workspaces. */
function workspacePackages() {
  const { workspaces } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const dirs = workspaces.flatMap((entry) =>
    entry.endsWith('/*')
      ? fs
          .readdirSync(path.join(root, entry.slice(0, -2)), { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => `${entry.slice(0, -2)}/${d.name}`)
      : [entry],
  );
  return dirs
    .filter((dir) => fs.existsSync(path.join(root, dir, 'package.json')))
    .map((dir) => ({ dir, name: JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8')).name }));
}

const crossPackagePaths = {
  group: ['../../*/src/*', '../../../*/src/*', '../../libs/*', '../../services/*'],
  message: 'Import workspace packages by name, never by a relative path into another package.',
};
// Layering: a lib imports only other libs and external packages, never the gateway, a service, a
// tool, the tests or the benchmarks that stand on it.
const aboveLibs = workspacePackages()
  .filter(({ dir }) => !dir.startsWith('libs/'))
  .map(({ name }) => ({
    name,
    message: 'A lib imports only libs and external packages; move the shared part into a lib or invert the dependency.',
  }));

// Layering inside a service (gateway and services/*): the domain holds the rules and reaches
// storage, transports and the bus only through its ports; a ports file names only the model.
const serviceRoots = [
  'gateway',
  ...workspacePackages()
    .filter(({ dir }) => dir.startsWith('services/'))
    .map(({ dir }) => dir),
];
const domainImportsNoAdapter = [
  {
    group: ['**/data-access', '**/data-access/**', '**/entry-points', '**/entry-points/**'],
    message: 'The domain reaches data access and entry points only through its ports (the adapters implement them).',
  },
  {
    group: ['knex', 'express', '@grpc/*', 'nats'],
    message: 'The domain knows no database, HTTP, gRPC or NATS library: put that in data-access or entry-points.',
  },
];
// A ports file declares types over the model: of the domain's files it imports only model files
// (model.ts or model/, and the state machines' *-machine.ts, which are data) and other ports files.
const portsImportOnlyModel = {
  regex: '^\\.\\.?/(?!(.*/)?(model|ports|[\\w-]+-machine)(/|$))',
  message: 'A ports file imports only the model (model.ts, model/, *-machine.ts) and other ports files.',
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', '.stack/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        URL: 'readonly',
        AbortSignal: 'readonly',
        Headers: 'readonly',
        FormData: 'readonly',
        Blob: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-restricted-imports': ['error', { patterns: [crossPackagePaths] }],
      // Prettier (npm run format) wraps code at 160 columns; this keeps comments within it too.
      // Only string and template literals may run past it: splitting prose or a URL would hide it from search.
      'max-len': ['error', { code: 160, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    files: serviceRoots.map((dir) => `${dir}/src/domain/**`),
    rules: { 'no-restricted-imports': ['error', { patterns: [crossPackagePaths, ...domainImportsNoAdapter] }] },
  },
  {
    files: serviceRoots.map((dir) => `${dir}/src/domain/**/ports.ts`),
    rules: { 'no-restricted-imports': ['error', { patterns: [crossPackagePaths, ...domainImportsNoAdapter, portsImportOnlyModel] }] },
  },
  {
    files: ['libs/**'],
    rules: { 'no-restricted-imports': ['error', { paths: aboveLibs, patterns: [crossPackagePaths] }] },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Browser modules the portal serves as they are (its page).
    files: ['services/portal/page/**/*.js', 'libs/bearer-token/browser/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: {
        window: 'readonly',
        document: 'readonly',
        location: 'readonly',
        history: 'readonly',
        navigator: 'readonly',
        sessionStorage: 'readonly',
        confirm: 'readonly',
        CSS: 'readonly',
        URLSearchParams: 'readonly',
      },
    },
  },
);
