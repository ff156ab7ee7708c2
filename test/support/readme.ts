import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The README section whose shell blocks are the walkthrough; blocks elsewhere install, start or test. */
export const WALKTHROUGH_HEADING = '## The four operations, with the demo data';

export interface ReadmeBlock {
  /** The `###` heading the block is under ('' before the first one). */
  section: string;
  code: string;
}

/**
 * The ```sh blocks of the walkthrough section, in order, with the README's default ports
 * (3001–3004, the receiver's 9000) replaced by those of the test's stack, where they follow
 * `127.0.0.1:`, `localhost:` or `.listen(`.
 */
export function walkthroughBlocks(readme: string, ports: Record<number, number>): ReadmeBlock[] {
  const start = readme.indexOf(`\n${WALKTHROUGH_HEADING}\n`);
  if (start < 0) throw new Error(`README has no "${WALKTHROUGH_HEADING}" section`);
  const rest = readme.slice(start + WALKTHROUGH_HEADING.length + 2);
  const end = rest.search(/^## /m);
  const blocks: ReadmeBlock[] = [];
  let section = '';
  let code: string[] | undefined;
  for (const line of (end < 0 ? rest : rest.slice(0, end)).split('\n')) {
    if (code) {
      if (line.startsWith('```')) {
        blocks.push({ section, code: rewritePorts(code.join('\n'), ports) });
        code = undefined;
      } else code.push(line);
    } else if (line.startsWith('### ')) section = line.slice(4).trim();
    else if (line.trim() === '```sh') code = [];
  }
  return blocks;
}

function rewritePorts(code: string, ports: Record<number, number>): string {
  return code.replace(/(?<=(?:127\.0\.0\.1|localhost):|\.listen\()(\d+)\b/g, (port) =>
    String(ports[Number(port)] ?? port),
  );
}

/**
 * One bash, as the reader's terminal: variables set by one block are there for the next, and
 * background jobs (the webhook receiver) live on until `close()`. Each block runs with
 * `set -euo pipefail`; a failing command ends the shell and fails the block.
 */
export class ShellSession {
  private output = '';
  private readonly dir = mkdtempSync(join(tmpdir(), 'fincore-readme-'));
  private readonly exited: Promise<number | null>;
  private blocks = 0;

  private constructor(private readonly bash: ChildProcess) {
    bash.stdout!.on('data', (d: Buffer) => (this.output += d.toString()));
    bash.stderr!.on('data', (d: Buffer) => (this.output += d.toString()));
    this.exited = new Promise((resolve) => bash.once('exit', (code) => resolve(code)));
  }

  /** A shell in `cwd` with only the given environment, in a process group of its own. */
  static start(cwd: string, env: Record<string, string>): ShellSession {
    const bash = spawn('bash', ['--noprofile', '--norc'], {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    bash.stdin!.write('set -euo pipefail\n');
    return new ShellSession(bash);
  }

  /** Everything the shell and its background jobs printed so far. */
  printed(): string {
    return this.output;
  }

  /** Runs a block (sourced from a file, stdin from /dev/null) and resolves with what it printed. */
  async run(code: string): Promise<string> {
    const n = ++this.blocks;
    const file = join(this.dir, `block-${n}.sh`);
    writeFileSync(file, `${code}\n`);
    const done = `__readme_block_${n}_done__`;
    const from = this.output.length;
    this.bash.stdin!.write(`source ${file} </dev/null\nprintf '\\n${done}\\n'\n`);
    const finished = await Promise.race([
      new Promise<boolean>((resolve) => {
        const check = () => {
          if (!this.output.includes(done, from)) return;
          this.bash.stdout!.off('data', check);
          resolve(true);
        };
        this.bash.stdout!.on('data', check);
        check();
      }),
      this.exited.then(() => false),
    ]);
    const printed = this.output.slice(from).replace(`\n${done}\n`, '');
    if (!finished) throw new Error(`the shell exited in this block:\n${code}\nit printed:\n${printed}`);
    return printed;
  }

  /** Stops the shell and its background jobs (its whole process group). */
  async close(): Promise<void> {
    try {
      process.kill(-this.bash.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    await this.exited;
    rmSync(this.dir, { recursive: true, force: true });
  }
}
