/**
 * Where a phase spends the api's CPU (CPU_PROFILE_DIR=<dir>): V8's sampling CPU profiler over the benchmark's own
 * process (the api) during one measured phase, written as `<dir>/<phase>.cpuprofile` for Chrome DevTools
 * (Performance tab, "Load profile"). The roles' process is profiled by the same variable in
 * tests/support/main-process.ts (docs/testing.md, "Benchmarks").
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';

export async function profileCpu(dir: string | undefined, phase: string): Promise<{ stop(): Promise<void> }> {
  if (!dir) return { stop: async () => undefined };
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `${phase}.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
    },
  };
}
