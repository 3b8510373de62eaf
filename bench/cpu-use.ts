/**
 * CPU time per party of a benchmark (Linux /proc): the benchmark's process (the api), the roles' process (relay and
 * projectors), the database's backends serving the run's database, and the NATS server. On a shared machine the
 * latencies move with the neighbours' load, but the CPU a piece of work costs moves much less: reported per operation,
 * it says where the work goes and whether a change made it cheaper (docs/testing.md, "Benchmarks").
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { Knex } from 'knex';

const ticksPerSecond = 100; // USER_HZ on Linux

/** utime + stime of a process (all its threads), in seconds; 0 when it is gone or /proc is not there. */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return 0;
  }
}

function pidsNamed(executable: string): number[] {
  try {
    return readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0')[0]!.endsWith(executable);
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}

/** Busy CPU seconds of the whole machine, all cores (/proc/stat: everything but idle and iowait); 0 without /proc. */
function machineBusySeconds(): number {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const [user, nice, system, , , irq, softirq, steal] = ticks.map(Number);
    return (user! + nice! + system! + irq! + softirq! + steal!) / ticksPerSecond;
  } catch {
    return 0;
  }
}

export interface CpuParties {
  api: number;
  roles?: number;
  /** The run's database: its backends are read from pg_stat_activity at each reading. */
  knex: Knex;
}

type Reading = Map<string, Map<number, number>>;

async function read(parties: CpuParties): Promise<Reading> {
  const { rows } = await parties.knex.raw<{ rows: { pid: number }[] }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  const groups: [string, number[]][] = [
    ['api', [parties.api]],
    ['roles', parties.roles ? [parties.roles] : []],
    ['database', rows.map((r) => r.pid)],
    ['nats', pidsNamed('nats-server')],
  ];
  return new Map(groups.map(([name, pids]) => [name, new Map(pids.map((pid) => [pid, cpuSecondsOf(pid)]))]));
}

/** Starts a measure; `end(operations)` answers the CPU milliseconds per operation of each party since the start. */
export async function measureCpu(parties: CpuParties): Promise<{ end(operations: number): Promise<string> }> {
  const before = await read(parties);
  const machineBefore = machineBusySeconds();
  return {
    async end(operations) {
      const after = await read(parties);
      const machine = machineBusySeconds() - machineBefore;
      const parts: string[] = [];
      let total = 0;
      for (const [name, pids] of after) {
        let seconds = 0;
        // A backend that ended in between is not counted; one that began is counted from 0.
        for (const [pid, s] of pids) seconds += s - (before.get(name)?.get(pid) ?? 0);
        total += seconds;
        if (pids.size > 0) parts.push(`${name} ${((seconds * 1000) / operations).toFixed(2)}`);
      }
      // The machine's busy time also counts the load generator and everything else running (a shared machine).
      return `${parts.join(', ')}; total ${((total * 1000) / operations).toFixed(2)} ms of CPU per operation; machine busy ${((machine * 1000) / operations).toFixed(2)}`;
    },
  };
}
