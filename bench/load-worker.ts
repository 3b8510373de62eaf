import { parentPort, workerData } from 'node:worker_threads';
import { runLoad, type LoadOptions, type LoadRequest } from './load.js';

/** Runs one load in its own thread, so the generator does not share the server's event loop. */
const { port, requests, concurrency, options } = workerData as { port: number; requests: LoadRequest[]; concurrency: number; options?: LoadOptions };
const result = await runLoad(port, requests, concurrency, options);
parentPort!.postMessage({ ...result, statuses: [...result.statuses] });
