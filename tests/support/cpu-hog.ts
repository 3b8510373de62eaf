/**
 * A CPU hog for the fault tests under pressure (docs/testing.md, "Faults under CPU pressure"): child processes (by
 * default one per core), each busy for `share` of every slice (10 ms) and asleep for the rest, at the same priority as
 * everything else, so that the service's processes compete for the cores as on a machine that a flash sale, a rebuild
 * or a neighbour keeps busy. A child never outlives the test: it exits when its stdin (a pipe from this process)
 * closes, which the kernel does when this process dies however it dies, and when its parent pid changes; stop() kills
 * it. `machinePressure` reads what the machine bore meanwhile (its run queue and busy share).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { machineBusySeconds } from '../../bench/cpu-use.js';

export interface CpuHog {
  readonly processes: number;
  readonly share: number;
  readonly children: readonly ChildProcess[];
  /** CPU seconds the children used per child and wall second, from the start to now or stop (0 to 1). */
  achievedShare(): number;
  /** Kills the children and waits for them. */
  stop(): Promise<void>;
}

// Runs with `node -e`: no TypeScript, no imports from the project (it must start fast on a busy machine).
const childScript = `
const share = Number(process.env.HOG_SHARE), slice = Number(process.env.HOG_SLICE_MS);
const parent = Number(process.env.HOG_PARENT);
process.stdin.on('end', () => process.exit(0));
process.stdin.on('close', () => process.exit(0));
process.stdin.resume();
const busy = share * slice, idle = slice - busy;
const tick = () => {
  if (process.ppid !== parent) process.exit(0);
  const until = performance.now() + busy;
  while (performance.now() < until);
  if (idle >= 1) setTimeout(tick, idle);
  else setImmediate(tick);
};
tick();
`;

/** utime + stime of a process, in seconds (Linux /proc; 0 elsewhere or once it is gone). */
function cpuSecondsOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Starts `processes` busy children (default: one per core) at `share` (0 < share ≤ 1) of each `sliceMs`. */
export function startCpuHog(options: { processes?: number; share?: number; sliceMs?: number } = {}): CpuHog {
  const processes = options.processes ?? os.cpus().length;
  const share = options.share ?? 0.9;
  const sliceMs = options.sliceMs ?? 10;
  if (!(share > 0 && share <= 1)) throw new Error(`a CPU hog's share is in (0, 1], not ${share}`);
  const children: ChildProcess[] = Array.from({ length: processes }, () =>
    spawn(process.execPath, ['-e', childScript], {
      env: { HOG_SHARE: String(share), HOG_SLICE_MS: String(sliceMs), HOG_PARENT: String(process.pid) },
      stdio: ['pipe', 'ignore', 'inherit'],
    }),
  );
  const started = performance.now();
  const used = () => children.reduce((sum, c) => sum + cpuSecondsOf(c.pid), 0);
  let stopped: { seconds: number; at: number } | undefined;
  return {
    processes,
    share,
    children,
    achievedShare() {
      const { seconds, at } = stopped ?? { seconds: used(), at: performance.now() };
      return seconds / processes / ((at - started) / 1000);
    },
    async stop() {
      stopped ??= { seconds: used(), at: performance.now() };
      await Promise.all(
        children.map((child) => {
          if (child.exitCode !== null || child.signalCode !== null) return undefined;
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGKILL');
          return exited;
        }),
      );
    },
  };
}

export interface MachinePressure {
  /** Runnable tasks, on average over the readings (/proc/stat's procs_running): the load the cores bore. */
  runQueue: number;
  /** Busy share of all cores over the time (/proc/stat; 0 without /proc). */
  busy: number;
  /** The 1-minute load average at the end (it lags: after 30 s of load it shows about 40 % of the rise). */
  loadAverage: number;
}

/** Reads the run queue every 250 ms from now; `end()` answers what the machine bore since (Linux /proc). */
export function machinePressure(): { end(): MachinePressure } {
  const runnable: number[] = [];
  const read = () => {
    try {
      const line = /^procs_running (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
      // Less this reader itself, which is running as it reads.
      if (line) runnable.push(Number(line[1]) - 1);
    } catch {
      // no /proc: no reading
    }
  };
  const timer = setInterval(read, 250);
  const busyBefore = machineBusySeconds();
  const started = performance.now();
  return {
    end() {
      clearInterval(timer);
      const seconds = (performance.now() - started) / 1000;
      return {
        runQueue: runnable.length === 0 ? 0 : runnable.reduce((a, b) => a + b, 0) / runnable.length,
        busy: (machineBusySeconds() - busyBefore) / seconds / os.cpus().length,
        loadAverage: os.loadavg()[0]!,
      };
    },
  };
}
