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
  /** Backends that ended before the last snapshot: counted up to the last sample that saw them. */
  backendsEnded: number;
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
  /** `processes`: read at every snapshot, so a process added to the array meanwhile is measured from then. */
  constructor(
    private readonly world: BenchWorld,
    private readonly processes: readonly Pick<BenchProcess, 'name' | 'pid'>[],
  ) {}

  private async snapshot(): Promise<CpuSnapshot> {
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

  /** `work`'s result, and the CPU spent while it ran (see track). */
  async measure<T>(work: () => Promise<T>): Promise<{ result: T; cpu: CpuSpent }> {
    const tracking = await this.track();
    try {
      const result = await work();
      return { result, cpu: await tracking.stop() };
    } catch (error) {
      await tracking.stop();
      throw error;
    }
  }

  /**
   * Starts measuring: snapshots now and every `sampleMs` until `stop`, which snapshots once more
   * and answers what was spent in between. Pools close idle connections, so backends end during a
   * measurement: each counts up to the last sample that saw it. A backend that connected after the
   * start counts with all it spent (it started within the span).
   */
  private async track(sampleMs = 1000): Promise<{ stop(): Promise<CpuSpent> }> {
    const first = await this.snapshot();
    const seen = new Map(first.backends);
    const merge = (s: CpuSnapshot) => s.backends.forEach((ms, pid) => seen.set(pid, ms));
    let sampling: Promise<void> = Promise.resolve();
    const timer = setInterval(() => {
      sampling = sampling.then(() => this.snapshot().then(merge, () => undefined));
    }, sampleMs);
    return {
      stop: async () => {
        clearInterval(timer);
        await sampling;
        const last = await this.snapshot();
        merge(last);
        const processes: Record<string, number> = {};
        for (const [name, ms] of last.processes) processes[name] = ms - (first.processes.get(name) ?? 0);
        let postgres = 0;
        for (const [pid, ms] of seen) postgres += ms - (first.backends.get(pid) ?? 0);
        const backendsEnded = [...seen.keys()].filter((pid) => !last.backends.has(pid)).length;
        const total = Object.values(processes).reduce((a, b) => a + b, 0) + postgres;
        return { processes, postgres, backendsEnded, total };
      },
    };
  }
}
