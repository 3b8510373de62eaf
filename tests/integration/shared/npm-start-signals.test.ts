/**
 * `npm start` stopped as the README says (docs/operations.md, "Stopping"): SIGINT or SIGTERM to the npm process
 * alone, as `kill -INT <its pid>` sends it, reaches the service, which stops cleanly; no process of the start is left
 * and its port is closed. npm forwards the signal to its script's process, so that process must be node itself (the
 * start script execs it): a shell between them would drop the signal (or die of it) and leave node running.
 */
import { expect } from 'chai';
import { listening, until } from '../../support/main-process.js';
import { mainSuite } from '../../support/main-suite.js';

/** Whether any process of the process group is left. */
function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

describe('npm start stopped by a signal to the npm process (npm, main.ts, PostgreSQL)', function () {
  this.timeout(90_000);
  const suite = mainSuite('npm-start-signals');

  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    it(`${signal} to npm stops the service: "stopped" logged, every process of the start gone, its port closed`, async () => {
      // In a process group of its own: what the test finds left of it afterwards is what the start left.
      const service = await suite.start({ PORT: '0', SEED_DEMO: 'false' }, { npm: true, detached: true });
      const group = service.child.pid!;
      try {
        process.kill(group, signal);
        await until('every process of the start to end', () => (groupAlive(group) ? undefined : true), 15_000);
        expect(service.output()).to.include('"message":"stopped"');
        expect(await listening(service.port)).to.equal(false);
      } finally {
        if (groupAlive(group)) process.kill(-group, 'SIGKILL');
      }
    });
});
