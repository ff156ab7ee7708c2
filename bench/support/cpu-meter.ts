import { cpuMs } from './cpu-profile';
import { BenchProcess } from './processes';
import { BenchWorld } from './world';

/** CPU time (utime + stime, ms) at one moment: per benchmark child process, and per PostgreSQL backend. */
export interface CpuSnapshot {
  processes: Map<string, number>;
  backends: Map<number, number>;
}

/** CPU spent between two snapshots, in ms. */
export interface CpuSpent {
  /** Per child process, by name (credentials-api, notification-api, notifier). */
  processes: Record<string, number>;
  /** The backends of the run's database (PostgreSQL's shared background processes are not counted). */
  postgres: number;
  /** Backends that ended between the snapshots: what they spent after the first one is missing. */
  backendsLost: number;
  total: number;
}

const readCpu = (pid: number): number | undefined => {
  try {
    return cpuMs(pid);
  } catch {
    return undefined;
  }
};

/**
 * Reads /proc/<pid>/stat of the benchmark's own child processes and of the PostgreSQL backends
 * connected to the run's database (PostgreSQL runs on this machine; its backends are processes
 * here too). Redis and PostgreSQL's background writers serve every database and are left out.
 */
export class CpuMeter {
  constructor(
    private readonly world: BenchWorld,
    private readonly processes: readonly BenchProcess[],
  ) {}

  async snapshot(): Promise<CpuSnapshot> {
    const rows = await this.world.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    const backends = new Map<number, number>();
    for (const { pid } of rows) {
      const ms = readCpu(pid);
      if (ms !== undefined) backends.set(pid, ms);
    }
    const processes = new Map<string, number>();
    for (const p of this.processes) processes.set(p.name, readCpu(p.pid) ?? NaN);
    return { processes, backends };
  }

  /** A backend that connected after `before` counts with all it spent (it started within the span). */
  static spent(before: CpuSnapshot, after: CpuSnapshot): CpuSpent {
    const processes: Record<string, number> = {};
    for (const [name, ms] of after.processes) processes[name] = ms - (before.processes.get(name) ?? NaN);
    let postgres = 0;
    for (const [pid, ms] of after.backends) postgres += ms - (before.backends.get(pid) ?? 0);
    const backendsLost = [...before.backends.keys()].filter((pid) => !after.backends.has(pid)).length;
    const total = Object.values(processes).reduce((a, b) => a + b, 0) + postgres;
    return { processes, postgres, backendsLost, total };
  }
}
