#!/usr/bin/env node
// Compiles a package's src/ (with --flat: its top-level .ts files) to dist/ with swc (CommonJS,
// source maps). Type-checking is a separate step (tsc --noEmit), so a build never waits for the
// checker and never blocks on a type error in a package that is only being edited.
const { transformFile } = require('@swc/core');
const fs = require('node:fs');
const path = require('node:path');

const root = process.cwd();
// `--flat`: the sources are the .ts files at the package root (examples/), not src/.
const flat = process.argv.includes('--flat');
const srcDir = flat ? root : path.join(root, 'src');
const outDir = path.join(root, 'dist');

function listSources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return flat ? [] : listSources(full);
    if (/\.(ts|js)$/.test(entry.name) && !/\.(test|spec)\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) return [full];
    return [];
  });
}

function copyAssets(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) copyAssets(full);
    else if (/\.(json|proto|html|css|txt|pdf)$/.test(entry.name)) {
      const target = path.join(outDir, path.relative(srcDir, full));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(full, target);
    }
  }
}

async function main() {
  fs.rmSync(outDir, { recursive: true, force: true });
  const files = listSources(srcDir);
  await Promise.all(
    files.map(async (file) => {
      const relative = path.relative(srcDir, file);
      const target = path.join(outDir, relative.replace(/\.ts$/, '.js'));
      const { code, map } = await transformFile(file, {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022', keepClassNames: true },
        module: { type: 'commonjs' },
        sourceMaps: true,
        sourceFileName: path.relative(path.dirname(target), file),
      });
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, `${code}\n//# sourceMappingURL=${path.basename(target)}.map\n`);
      fs.writeFileSync(`${target}.map`, map);
    }),
  );
  if (!flat) copyAssets(srcDir);
}

main().catch((error) => {
  console.error(`build failed in ${root}: ${error.message}`);
  process.exit(1);
});
