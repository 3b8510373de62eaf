/**
 * Garbage-collection pauses of the benchmark's own process (the api) while a phase runs: a tail latency the size of
 * a major collection points here rather than at the database (docs/testing.md, "Benchmarks").
 */
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

export function watchGcPauses(): { stop(): string } {
  const pauses: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceEntry[]) pauses.push(entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      observer.disconnect();
      const total = pauses.reduce((a, b) => a + b, 0);
      const longest = pauses.reduce((a, b) => Math.max(a, b), 0);
      const over10 = pauses.filter((p) => p > 10).length;
      return `gc ${pauses.length} pauses, ${total.toFixed(0)} ms in all, longest ${longest.toFixed(1)} ms, ${over10} over 10 ms`;
    },
  };
}
