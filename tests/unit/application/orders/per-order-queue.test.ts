import { expect } from 'chai';
import { PerKeyQueue } from '../../../../application/orders/per-order-queue.js';

describe('PerKeyQueue (one command at a time per order)', () => {
  it('runs the work of one key one at a time, in order, whatever fails; other keys run alongside', async () => {
    const queue = new PerKeyQueue();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const work =
      (name: string, fail = false) =>
      async () => {
        running++;
        most = Math.max(most, running);
        log.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`end ${name}`);
        running--;
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      queue.run('a', work('a1')),
      queue.run('a', work('a2', true)),
      queue.run('a', work('a3')),
    ]);
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect(log).to.deep.equal(['start a1', 'end a1', 'start a2', 'end a2', 'start a3', 'end a3']);
    expect(most).to.equal(1);
    expect(queue.size).to.equal(0);

    most = 0;
    await Promise.all([queue.run('x', work('x')), queue.run('y', work('y'))]);
    expect(most).to.equal(2);
  });
});
