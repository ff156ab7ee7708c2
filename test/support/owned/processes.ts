import { type ChildProcess, execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Runs a command to its end; a failure carries its output. */
export async function run(command: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, { timeout: 60_000 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `${command} ${args.join(' ')} failed: ${(error as Error).message}\n${stdout ?? ''}${stderr ?? ''}`,
      { cause: error },
    );
  }
}

/** Sends a signal, ignoring a process that is already gone. */
export function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** SIGKILLs a child process and resolves once it has exited; one that already exited is left alone. */
export async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** The children of a process, by `pgrep -P`. */
export async function childrenOf(pid: number): Promise<number[]> {
  try {
    const out = await run('pgrep', ['-P', String(pid)]);
    return out.split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
}

/**
 * Cleanups to run synchronously should the test process exit without closing what it started
 * (a crash, a timeout), so no server outlives its test run.
 */
const onExit = new Set<() => void>();
process.once('exit', () => {
  for (const cleanup of onExit) {
    try {
      cleanup();
    } catch {
      // best effort at exit
    }
  }
});

export function cleanupAtExit(cleanup: () => void): () => void {
  onExit.add(cleanup);
  return () => onExit.delete(cleanup);
}
