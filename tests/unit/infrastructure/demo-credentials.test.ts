import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { keepDemoCredentials, readDemoCredentials } from '../../../infrastructure/shared/demo-credentials.js';

/** demo-credentials.json (infrastructure/shared/demo-credentials.ts): each seed's part kept, never seen half written. */
describe('demo credentials file', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-credentials-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps each seed’s keys beside the others’, readable only by its owner, with nothing else left in the directory', () => {
    expect(readDemoCredentials(dir)).to.deep.equal({});
    keepDemoCredentials(dir, { apiKey: 'k1', merchantId: 'DEMO' });
    keepDemoCredentials(dir, { gateway: { shop: { clientId: 'demo-shop' } } });
    keepDemoCredentials(dir, { apiKey: 'k2' });
    expect(readDemoCredentials(dir)).to.deep.equal({
      apiKey: 'k2',
      merchantId: 'DEMO',
      gateway: { shop: { clientId: 'demo-shop' } },
    });
    expect(fs.statSync(path.join(dir, 'demo-credentials.json')).mode & 0o777).to.equal(0o600);
    expect(fs.readdirSync(dir)).to.deep.equal(['demo-credentials.json']);
  });

  it('is never read half written while another process rewrites it (a script reading it as the service seeds)', async () => {
    keepDemoCredentials(dir, { reader: 'first' });
    const writer = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { keepDemoCredentials } from './infrastructure/shared/demo-credentials.ts';
         for (let i = 0; i < 150; i++) keepDemoCredentials(${JSON.stringify(dir)}, { writer: { i, big: 'x'.repeat(200000) } });`,
      ],
      { stdio: 'inherit' },
    );
    const exited = new Promise<number | null>((resolve) => writer.on('exit', resolve));
    let done = false;
    void exited.then(() => (done = true));
    let reads = 0;
    while (!done) {
      const text = fs.readFileSync(path.join(dir, 'demo-credentials.json'), 'utf8');
      expect(() => JSON.parse(text), `read ${reads}: ${text.length} characters`).not.to.throw();
      reads++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await exited).to.equal(0);
    expect(reads).to.be.above(10);
    const kept = readDemoCredentials(dir) as { reader: string; writer: { i: number } };
    expect([kept.reader, kept.writer.i]).to.deep.equal(['first', 149]);
  });
});
