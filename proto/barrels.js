// Writes an index.ts next to each generated v1 folder, so message types import as one namespace.
const fs = require('node:fs');
const path = require('node:path');

for (const service of fs.readdirSync('src/generated/rental')) {
  const dir = path.join('src/generated/rental', service, 'v1');
  const lines = fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
    .map((file) => `export type * from './${file.replace(/\.ts$/, '')}';`);
  fs.writeFileSync(path.join(dir, 'index.ts'), `${lines.join('\n')}\n`);
}
