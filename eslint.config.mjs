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
