// Who used the CPU during a phase of the agent benchmark, from /proc (Linux; elsewhere null): this
// process (API, relay, projections), the agent worker processes, every `postgres` and `nats-server`
// process on the machine (other databases on the same server included), and the machine as a
// whole, so a phase can say which process a figure waited on and whether the cores were full.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/** Clock ticks per second of /proc's times (USER_HZ: 100 on every Linux this runs on). */
const TICK_MS = 10;

export interface CpuSnapshot {
  at: number;
  api: number;
  workers: number;
  postgres: number;
  nats: number;
  /** Busy and total ms over every core, from /proc/stat. */
  busy: number;
  total: number;
}

export interface CpuUse {
  seconds: number;
  /** CPU ms used in the phase, by whom. */
  apiMs: number;
  agentWorkersMs: number;
  postgresMs: number;
  natsMs: number;
  /** Every core's busy time in the phase (any process), in ms and as a share of all cores' time. */
  machineBusyMs: number;
  machineBusyPercent: number;
}

/**
 * utime + stime of a process, in ms; 0 when it is gone. With `children`, the times of its children
 * that ended too (cutime + cstime): Postgres backends come and go, and the postmaster keeps theirs.
 */
function processMs(pid: number, children = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    return (fields[11]! + fields[12]! + (children ? fields[13]! + fields[14]! : 0)) * TICK_MS;
  } catch {
    return 0;
  }
}

function byName(names: readonly string[]): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (name in out) out[name]! += processMs(Number(entry), true);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

export function cpuSnapshot(workerPids: readonly number[]): CpuSnapshot | null {
  if (os.platform() !== 'linux') return null;
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = line[3]! + (line[4] ?? 0);
    const total = line.slice(0, 8).reduce((a, b) => a + b, 0);
    const named = byName(['postgres', 'nats-server']);
    const usage = process.cpuUsage();
    return {
      at: performance.now(),
      api: (usage.user + usage.system) / 1000,
      workers: workerPids.reduce((sum, pid) => sum + processMs(pid), 0),
      postgres: named.postgres!,
      nats: named['nats-server']!,
      busy: (total - idle) * TICK_MS,
      total: total * TICK_MS,
    };
  } catch {
    return null;
  }
}

export function cpuUse(before: CpuSnapshot | null, after: CpuSnapshot | null): CpuUse | null {
  if (!before || !after) return null;
  const ms = (n: number) => Math.round(n);
  return {
    seconds: Math.round((after.at - before.at) / 100) / 10,
    apiMs: ms(after.api - before.api),
    agentWorkersMs: ms(after.workers - before.workers),
    postgresMs: ms(after.postgres - before.postgres),
    natsMs: ms(after.nats - before.nats),
    machineBusyMs: ms(after.busy - before.busy),
    machineBusyPercent: Math.round(((after.busy - before.busy) / Math.max(1, after.total - before.total)) * 100),
  };
}
