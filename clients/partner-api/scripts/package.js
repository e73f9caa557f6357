#!/usr/bin/env node
// Assembles dist/package, the client as partners install it: compiled JavaScript with its .d.ts,
// the API description it was generated from, and a manifest whose version is derived from that
// description's version and whose only dependency is openapi-fetch (no workspace packages).
// `npm pack ./dist/package` turns it into the tarball.
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const root = path.resolve(__dirname, '..');
const out = path.join(root, 'dist', 'package');

/**
 * The API's calendar tag `YYYY.MM.DD` (optionally `.N`, the Nth build of the day) as a semantic
 * version `YYYY.MMDD.N`: it orders like the tag and has no zero-padded parts.
 */
function packageVersion(apiVersion) {
  const match = /^(\d{4})\.(\d{2})\.(\d{2})(?:\.(\d+))?$/.exec(apiVersion);
  if (!match) throw new Error(`The API description's version ${apiVersion} is not a calendar tag YYYY.MM.DD(.N)`);
  const [, year, month, day, build] = match;
  return `${Number(year)}.${Number(`${month}${day}`)}.${Number(build ?? 0)}`;
}

function compile() {
  const program = ts.createProgram([path.join(root, 'src', 'index.ts')], {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    strict: true,
    declaration: true,
    skipLibCheck: true,
    esModuleInterop: true,
    types: [],
    rootDir: path.join(root, 'src'),
    outDir: out,
  });
  const { diagnostics } = program.emit();
  const errors = [...ts.getPreEmitDiagnostics(program), ...diagnostics];
  if (errors.length)
    throw new Error(ts.formatDiagnostics(errors, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' }));
}

function main() {
  const workspace = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const description = JSON.parse(fs.readFileSync(path.join(root, 'openapi.json'), 'utf8'));
  fs.rmSync(out, { recursive: true, force: true });
  compile();
  fs.copyFileSync(path.join(root, 'openapi.json'), path.join(out, 'openapi.json'));
  fs.copyFileSync(path.join(root, 'README.md'), path.join(out, 'README.md'));
  const manifest = {
    name: workspace.name,
    version: packageVersion(description.info.version),
    description: workspace.description,
    license: 'UNLICENSED',
    main: 'index.js',
    types: 'index.d.ts',
    exports: { '.': { types: './index.d.ts', default: './index.js' }, './openapi.json': './openapi.json', './package.json': './package.json' },
    files: ['index.js', 'index.d.ts', 'generated', 'openapi.json', 'README.md'],
    engines: { node: '>=18' },
    dependencies: { 'openapi-fetch': workspace.dependencies['openapi-fetch'] },
    apiVersion: description.info.version,
  };
  fs.writeFileSync(path.join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

try {
  main();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
