import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { listen, ListenOptions } from './listen';
import { ListenState } from './listen-state';

interface Io {
  out(line: string): void;
  err(line: string): void;
}

/** `listen`'s options from its arguments and environment; a message for what is missing. */
export function listenOptions(argv: string[], env: NodeJS.ProcessEnv): ListenOptions | string {
  const { values } = parseArgs({
    args: argv,
    options: {
      'forward-to': { type: 'string' },
      url: { type: 'string' },
      token: { type: 'string' },
      types: { type: 'string' },
      since: { type: 'string' },
    },
    strict: true,
  });
  const token = values.token ?? env.FINCORE_TOKEN;
  if (!token) return 'a token is required: --token <token> or FINCORE_TOKEN';
  return {
    forwardTo: values['forward-to'],
    url: (values.url ?? 'http://127.0.0.1:3003').replace(/\/+$/, ''),
    token,
    types: values.types,
    since: values.since,
  };
}

/** Runs `listen` until Ctrl-C (or SIGTERM); state under FINCORE_STATE_DIR, else ./.fincore. */
export async function runListen(options: ListenOptions, io: Io): Promise<number> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    const state = new ListenState(process.env.FINCORE_STATE_DIR ?? join(process.cwd(), '.fincore'));
    return await listen(options, state, io, stop.signal);
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
  }
}
