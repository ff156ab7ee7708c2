import { readFileSync } from 'node:fs';

/** A V8 CPU profile (`node --cpu-prof`), the parts read here. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

/** utime + stime of a process, in ms. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Self time per function over the last `seconds` of the profile, as a share of those samples. */
export function topFrames(profile: CpuProfile, seconds: number, count: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const ends: number[] = [];
  let t = 0;
  for (const d of profile.timeDeltas) ends.push((t += d));
  const from = t - seconds * 1e6;
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    if (ends[i] < from) return;
    const f = byId.get(id)!.callFrame;
    const where = f.url.split('/').slice(-2).join('/');
    const key = `${f.functionName || '(anonymous)'} ${where}${where ? `:${f.lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + profile.timeDeltas[i]);
    total += profile.timeDeltas[i];
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`);
}
