// `npm start` runs this before it builds: the build removes dist/, which a running stack loads
// from, and a second launcher's readiness checks would be answered by the first one's apps.
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';

/** The launcher's ports and their defaults, as the configuration has them. */
export const PORTS = {
  CREDENTIALS_API_PORT: 3001,
  CARD_API_PORT: 3002,
  NOTIFICATION_API_PORT: 3003,
  NOTIFIER_PORT: 3004,
};
export const DEFAULT_HOST = '127.0.0.1';

/** Resolves with why the apps could not listen on host:port (e.g. EADDRINUSE), or undefined. */
function listenError(host, port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error) => resolve(error.code ?? error.message));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}

/** The launcher's ports on which the apps could not listen now, with the reason. */
export async function unavailablePorts(env = process.env) {
  const host = env.HOST || DEFAULT_HOST;
  const unavailable = [];
  for (const [name, fallback] of Object.entries(PORTS)) {
    const port = Number(env[name] || fallback);
    // A malformed setting is for the configuration check to report.
    if (!Number.isInteger(port) || port < 1 || port > 65535) continue;
    const reason = await listenError(host, port);
    if (reason) unavailable.push(`${port} (${name}): ${reason}`);
  }
  return { host, unavailable };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { host, unavailable } = await unavailablePorts();
  if (unavailable.length) {
    process.stderr.write(
      `fincore: cannot listen on ${host}, port ${unavailable.join(', port ')}; is fincore already running? ` +
        'Stop it, or set those variables to free ports.\n',
    );
    process.exit(1);
  }
}
