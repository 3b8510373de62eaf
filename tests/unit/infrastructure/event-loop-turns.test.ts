/**
 * giveWay (infrastructure/shared/event-loop-turns.ts; docs/projections.md, "The event loop"): work that calls it
 * between pieces lets timers run about every budget, however many workers share the loop.
 */
import { performance } from 'node:perf_hooks';
import { expect } from 'chai';
import { giveWay, turnBudgetMs } from '../../../infrastructure/shared/event-loop-turns.js';
import { LagTrend } from '../../../infrastructure/shared/projection-lag.js';

/** `ms` of CPU in pieces of a millisecond, giving way between them. */
async function work(ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const piece = performance.now() + 1;
    while (performance.now() < piece);
    await giveWay();
  }
}

describe('giveWay', () => {
  it('lets a timer run within a few budgets while three workers keep the loop busy for 300 ms', async () => {
    const lateness: number[] = [];
    let due = performance.now() + 5;
    const timer = setInterval(() => {
      lateness.push(performance.now() - due);
      due = performance.now() + 5;
    }, 5);
    try {
      await Promise.all([work(300), work(300), work(300)]);
    } finally {
      clearInterval(timer);
    }
    // Without giving way, the timer would first run after the 900 ms of work. Two turns' budgets at most, and room for
    // a busy machine's scheduler.
    expect(lateness.length).to.be.greaterThan(10);
    expect(Math.max(...lateness)).to.be.below(100);
  });

  it('resolves at once while the budget lasts', async () => {
    const spent = performance.now() + turnBudgetMs + 1;
    while (performance.now() < spent);
    await giveWay(); // the budget was spent: a turn passes, and the next budget starts
    let resumed = false;
    setImmediate(() => (resumed = true));
    await giveWay();
    expect(resumed).to.equal(false);
  });
});

describe('LagTrend', () => {
  it('tells how many events a second the lag fell since the oldest look of its window', () => {
    const trend = new LagTrend(30_000);
    expect(trend.add(0, 9000)).to.equal(null);
    expect(trend.add(10_000, 7000)).to.equal(200);
    expect(trend.add(20_000, 4000)).to.equal(250);
    // The look at 0 s leaves the window; from 10 s to 40 s it fell 6,000.
    expect(trend.add(40_000, 1000)).to.equal(200);
    // Growing: negative (from 4,000 at 20 s to 5,500 at 50 s).
    expect(trend.add(50_000, 5500)).to.be.closeTo(-50, 1e-9);
  });
});
