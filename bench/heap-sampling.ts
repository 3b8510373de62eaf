/**
 * Where a phase allocates (HEAP_PROFILE=<file.heapprofile>): V8's sampling heap profiler over the benchmark's own
 * process (the api) during the measured rounds only, written for Chrome DevTools (Memory tab, "Load"). Allocation
 * per request drives the scavenges that bench:checkout counts (docs/testing.md, "Benchmarks").
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';

export async function sampleHeap(file: string | undefined): Promise<{ stop(): Promise<void> }> {
  if (!file) return { stop: async () => undefined };
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 32 * 1024,
    // Everything allocated, not only what is still alive when sampling stops.
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return {
    async stop() {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}
