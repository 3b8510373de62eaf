/**
 * The CPU hog of the pressure tests (tests/support/cpu-hog.ts): busy at most at its share, and never left running, by
 * stop() or when the process that started it dies (kill -9 included).
 */
import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { startCpuHog } from '../../support/cpu-hog.js';
import { until } from '../../support/main-process.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('CPU hog (test support)', function () {
  this.timeout(60_000);

  it('keeps a core busy at no more than its share, and stop() ends its children', async () => {
    const hog = startCpuHog({ processes: 1, share: 0.3 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await hog.stop();
    const share = hog.achievedShare();
    expect(share).to.be.greaterThan(0.02).and.lessThan(0.45);
    for (const child of hog.children) expect(alive(child.pid!)).to.equal(false);
  });

  it('ends its children when the process that started it is killed -9', async () => {
    const script = `
      import { startCpuHog } from './tests/support/cpu-hog.ts';
      const hog = startCpuHog({ processes: 2, share: 0.2 });
      console.log('HOGS ' + hog.children.map((c) => c.pid).join(','));
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('../../..', import.meta.url).pathname,
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    parent.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const pids = await until('the hog to start', () => /HOGS (\S+)\n/.exec(out)?.[1]!.split(',').map(Number));
    expect(pids).to.have.length(2);
    expect(pids.every(alive)).to.equal(true);
    const exited = new Promise((resolve) => parent.once('exit', resolve));
    parent.kill('SIGKILL');
    await exited;
    await until('the hog children to exit', () => (pids.some(alive) ? undefined : true), 5000);
  });
});
