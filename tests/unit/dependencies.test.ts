/**
 * What `npm install` on the project's Node sees of the dependency tree (docs/operations.md, "Dependencies"): every
 * package's declared engine admits this Node, no install script runs unreviewed, and the NATS client's ids come from
 * the nuid pinned by package.json's `overrides` (3.0.0 declares Node >= 22; 2.0.3 has the same API on Node >= 18).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { nuid } from '@nats-io/transport-node';
import { expect } from 'chai';
import semver from 'semver';

const root = fileURLToPath(new URL('../..', import.meta.url));
const lock = JSON.parse(fs.readFileSync(`${root}/package-lock.json`, 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

describe('dependencies as npm install sees them on the project Node', function () {
  this.timeout(60_000);

  it('every locked package declares an engine range that admits this Node (no EBADENGINE)', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([name]) => name !== '')
      .flatMap(([name, pkg]) => {
        const range = !pkg.engines || Array.isArray(pkg.engines) ? undefined : pkg.engines.node;
        return range && !semver.satisfies(process.version, range, { includePrerelease: true })
          ? [`${name}@${pkg.version} wants node ${range}`]
          : [];
      });
    expect(refusing).to.deep.equal([]);
  });

  it('the NATS client uses the overridden nuid, whose ids stay unique 22-character tokens', () => {
    const nuids = Object.entries(lock.packages).filter(([name]) => name.endsWith('node_modules/@nats-io/nuid'));
    expect(nuids.map(([, pkg]) => pkg.version))
      .to.have.length.above(0)
      .and.satisfy((v: string[]) => v.every((x) => x === '2.0.3'));
    const ids = Array.from({ length: 10_000 }, () => nuid.next());
    expect(new Set(ids).size).to.equal(ids.length);
    for (const id of ids.slice(0, 100)) expect(id).to.match(/^[0-9A-Za-z]{22}$/);
  });

  it('no package has an install script that is neither approved nor refused (telemetry stays off)', async () => {
    const { stdout } = await promisify(execFile)('npm', ['install-scripts', 'ls'], { cwd: root });
    expect(stdout.trim()).to.equal('No packages with unreviewed install scripts.');
  });
});
