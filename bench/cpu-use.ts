/**
 * CPU time per party of a benchmark (Linux /proc): the benchmark's process (the api), the roles' process (relay and
 * projectors), the database's backends serving the run's database, and the NATS server. On a shared machine the
 * latencies move with the neighbours' load, but the CPU a piece of work costs moves much less: reported per operation,
 * it says where the work goes and whether a change made it cheaper (docs/testing.md, "Benchmarks").
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { Knex } from 'knex';

const ticksPerSecond = 100; // USER_HZ on Linux

/** The fields of /proc/<pid>/stat after the command's name (state first), or undefined when it is gone. */
function statOf(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** utime + stime of a process (all its threads), in seconds; 0 when it is gone or /proc is not there. */
function cpuSecondsOf(pid: number): number {
  const fields = statOf(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) / ticksPerSecond : 0;
}

/** cutime + cstime: the CPU seconds of a process's children that ended and were waited for. */
function endedChildrenSecondsOf(pid: number): number {
  const fields = statOf(pid);
  return fields ? (Number(fields[13]) + Number(fields[14])) / ticksPerSecond : 0;
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
export function machineBusySeconds(): number {
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

interface Reading {
  pids: Map<string, Map<number, number>>;
  /** The CPU seconds of PostgreSQL's ended backends (the postmaster's cutime + cstime), all databases'. */
  endedBackends: number;
}

async function read(parties: CpuParties): Promise<Reading> {
  const { rows } = await parties.knex.raw<{ rows: { pid: number }[] }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  // The postmaster is the parent of this connection's backend.
  const own = await parties.knex.raw<{ rows: { pid: number }[] }>('SELECT pg_backend_pid() AS pid');
  const postmaster = Number(statOf(own.rows[0]!.pid)?.[1] ?? 0);
  const groups: [string, number[]][] = [
    ['api', [parties.api]],
    ['roles', parties.roles ? [parties.roles] : []],
    ['database', rows.map((r) => r.pid)],
    ['nats', pidsNamed('nats-server')],
  ];
  return {
    pids: new Map(groups.map(([name, pids]) => [name, new Map(pids.map((pid) => [pid, cpuSecondsOf(pid)]))])),
    endedBackends: postmaster > 0 ? endedChildrenSecondsOf(postmaster) : 0,
  };
}

/**
 * The CPU seconds since the first reading of the backends listed then but not now: one that pg_stat_activity left out
 * for a moment is read from /proc; one that ended (the pool closing an idle connection) is counted from the
 * postmaster's ended children (`endedSince`), less what it had used by the first reading. Those children are every
 * database's, and autovacuum's workers: a benchmark runs alone on its server.
 */
function unlistedBackends(
  before: ReadonlyMap<number, number> | undefined,
  now: ReadonlyMap<number, number>,
  endedSince: number,
): number {
  let seconds = endedSince;
  for (const [pid, s] of before ?? []) if (!now.has(pid)) seconds += statOf(pid) ? cpuSecondsOf(pid) - s : -s;
  return seconds;
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
      for (const [name, pids] of after.pids) {
        let seconds = 0;
        // One that began in between is counted from 0.
        for (const [pid, s] of pids) seconds += s - (before.pids.get(name)?.get(pid) ?? 0);
        if (name === 'database')
          seconds += unlistedBackends(before.pids.get(name), pids, after.endedBackends - before.endedBackends);
        total += seconds;
        if (pids.size > 0) parts.push(`${name} ${((seconds * 1000) / operations).toFixed(2)}`);
      }
      // The machine's busy time also counts the load generator and everything else running (a shared machine).
      return `${parts.join(', ')}; total ${((total * 1000) / operations).toFixed(2)} ms of CPU per operation; machine busy ${((machine * 1000) / operations).toFixed(2)}`;
    },
  };
}
