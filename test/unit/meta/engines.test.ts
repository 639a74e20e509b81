import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

const ROOT = join(__dirname, '..', '..', '..');
const read = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));

/**
 * Every installed package runs on the oldest Node the project declares (`engines.node`, 20.19): a
 * dependency whose own `engines` excludes it (as `@renovatebot/pep440` 5, Node ≥ 22.11, did) makes
 * `npm ci` warn and may break on users' machines, and CI runs Node 20.
 */
describe('dependencies run on the Node version the project declares', () => {
  it('no package in package-lock.json asks for a newer Node than engines.node allows', () => {
    const declared: string = read('package.json').engines.node;
    assert.equal(read('server/package.json').engines.node, declared);
    const oldest = semver.minVersion(declared)!.version;
    const lock = read('package-lock.json') as { packages: Record<string, { engines?: { node?: unknown } | unknown[] }> };
    const refused = Object.entries(lock.packages)
      .filter(([, info]) => info.engines && !Array.isArray(info.engines) && typeof (info.engines as { node?: unknown }).node === 'string')
      .filter(([, info]) => !semver.satisfies(oldest, (info.engines as { node: string }).node, { includePrerelease: true }))
      .map(([path, info]) => `${path} (node ${(info.engines as { node: string }).node})`);
    assert.deepEqual(refused, [], `these need a newer Node than ${oldest}`);
  });
});
