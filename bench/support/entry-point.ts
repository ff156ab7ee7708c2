/**
 * Runs a bench command's main and exits with its outcome: open handles (pools, Redis, timers) must
 * not keep a finished run alive, and a failure prints one line with its stack.
 */
export function runCommand(name: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: Error) => {
      process.stderr.write(`${name} failed: ${error.stack ?? error.message}\n`);
      process.exit(1);
    },
  );
}
