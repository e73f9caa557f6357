import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';

// `npm ci` on the Node the project declares must install without EBADENGINE: every package the
// lockfile pins (dev dependencies included) accepts the oldest Node that `engines` allows.
const root = path.resolve(__dirname, '..', '..');
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

describe('engines', () => {
  it('when the lockfile is read, then every installed package accepts the oldest Node the project declares', () => {
    const declared: string = readJson('package.json').engines.node;
    const oldest = semver.minVersion(declared)!.version;
    const packages = readJson('package-lock.json').packages as Record<string, { version?: string; engines?: { node?: string } | string[] }>;

    const refusing = Object.entries(packages)
      .filter(([, entry]) => entry.engines && !Array.isArray(entry.engines) && entry.engines.node && !semver.satisfies(oldest, entry.engines.node))
      .map(([location, entry]) => `${location.replace(/^.*node_modules\//, '')}@${entry.version} wants node ${(entry.engines as { node: string }).node}`);

    expect(refusing).toEqual([]);
  });
});
