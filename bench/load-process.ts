import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runLoad, type LoadOptions, type LoadRequest, type LoadResult } from './load.js';

/**
 * Runs a load (runLoad) in a node process of its own, so that the generator
 * shares neither an event loop nor a heap with anything else: in the process
 * of a benchmark that also loads data and runs the projectors, its timings
 * took in that process's garbage collection and background work.
 */
export function loadInOwnProcess(
  port: number,
  requests: LoadRequest[],
  concurrency: number,
  options: LoadOptions = {},
): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    child.once('message', (m: LoadResult & { statuses: [number, number][] }) =>
      resolve({ ...m, statuses: new Map(m.statuses) }),
    );
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`the load process exited with ${code}`))));
    child.send({ port, requests, concurrency, options });
  });
}

// The child: one load, its result sent back, then exit.
if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  process.once(
    'message',
    async (job: { port: number; requests: LoadRequest[]; concurrency: number; options: LoadOptions }) => {
      const result = await runLoad(job.port, job.requests, job.concurrency, job.options);
      process.send!({ ...result, statuses: [...result.statuses] }, () => process.exit(0));
    },
  );
}
