import 'reflect-metadata';
import { ConfigError, loadConfig } from '@fincore/platform';
import { runCommand, USAGE, UsageError } from './commands';

async function main(): Promise<number> {
  const io = {
    out: (l: string) => process.stdout.write(`${l}\n`),
    err: (l: string) => process.stderr.write(`${l}\n`),
  };
  try {
    return await runCommand(process.argv.slice(2), () => loadConfig(), io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`error: ${error.message}${error.brief ? '' : '\n'}`);
      if (!error.brief) io.err(USAGE);
      return 2;
    }
    io.err(error instanceof ConfigError ? error.message : `error: ${(error as Error).message}`);
    return 1;
  }
}

void main().then((code) => process.exit(code));
