import fs from 'node:fs';
import path from 'node:path';

// Libs are the bottom layer: they may depend on other libs and external packages, never on the
// gateway, a service, a tool or the tests above them. ESLint enforces the same for imports
// (eslint.config.mjs); this checks the manifests, which decide what a lib pulls in at install.
const root = path.resolve(__dirname, '..', '..');
const manifest = (dir: string) => JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
const libDirs = fs
  .readdirSync(path.join(root, 'libs'))
  .map((name) => `libs/${name}`)
  .filter((dir) => fs.existsSync(path.join(root, dir, 'package.json')));
const libNames = new Set(libDirs.map((dir) => manifest(dir).name as string));
// The shared build preset (swc, tsconfig, jest) every package builds with; no source imports it.
const BUILD_PRESET = '@rental/tooling';

describe('layering', () => {
  it.each(libDirs)('when %s lists its dependencies, then every workspace package among them is a lib', (dir) => {
    const { dependencies = {}, devDependencies = {}, peerDependencies = {} } = manifest(dir);
    const workspaceDependencies = Object.keys({ ...dependencies, ...devDependencies, ...peerDependencies }).filter(
      (name) => name.startsWith('@rental/') && name !== BUILD_PRESET,
    );
    expect(workspaceDependencies.filter((name) => !libNames.has(name))).toEqual([]);
  });
});
