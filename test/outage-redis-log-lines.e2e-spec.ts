import { eventually } from './support/http';
import { OwnedRedis } from './support/owned';
import { readiness } from './support/outage';
import { SpawnedApp, TestStack } from './support/stack';

const APPS = ['credentials-api', 'card-api', 'notification-api', 'notifier'] as const;
/** Long enough for every connection to fail several reconnects (ioredis retries every 50 ms and more). */
const OUTAGE_MS = 6000;

/** The lines of `text` written to the end; a line still being written is left out. */
const completeLines = (text: string) => text.slice(0, text.lastIndexOf('\n') + 1).split('\n');

/** The lines an app wrote that are not JSON, with the stream they went to. */
function nonJsonLines(app: SpawnedApp): string[] {
  return Object.entries(app.written()).flatMap(([stream, text]) =>
    completeLines(text)
      .filter((line) => line.trim() !== '')
      .filter((line) => {
        try {
          return typeof JSON.parse(line) !== 'object';
        } catch {
          return true;
        }
      })
      .map((line) => `${stream}: ${line}`),
  );
}

/** The messages of the app's JSON log lines. */
function logged(app: SpawnedApp): string[] {
  return completeLines(app.written().stdout)
    .filter((line) => line.startsWith('{'))
    .map((line) => String((JSON.parse(line) as { msg?: unknown }).msg));
}

/**
 * Every app's log stays JSON while Redis is away: the connections' errors (the app's own, BullMQ's
 * queues, workers and their blocking connections, the subscribers) go through the app's logger,
 * a few lines per outage rather than one per reconnect attempt.
 */
describe('outage: log lines while Redis is away', () => {
  let redis: OwnedRedis, stack: TestStack;
  const apps: Partial<Record<(typeof APPS)[number], SpawnedApp>> = {};
  beforeAll(async () => {
    redis = await OwnedRedis.start();
    stack = await TestStack.create({ REDIS_URL: redis.url() });
  }, 30_000);
  afterAll(async () => {
    await stack?.close();
    await redis?.close();
  });

  it('writes only JSON lines on stdout and stderr, and logs the lost connections a few times, not per retry', async () => {
    for (const name of APPS) apps[name] = await stack.spawnApp(name, { LOG_LEVEL: 'info' });
    await redis.stop();
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    await redis.restart();
    for (const app of Object.values(apps)) {
      await eventually(async () => (await readiness(app.url)).status === 200, {
        timeoutMs: 20_000,
        what: 'the app ready again',
      });
    }
    // What the apps wrote through the outage and the recovery; stopping them is not part of it.
    for (const [name, app] of Object.entries(apps)) {
      expect({ name, lines: nonJsonLines(app) }).toEqual({ name, lines: [] });
      // One report per connection and outage (they repeat at most every 10 s), not one per reconnect.
      const reports = logged(app).filter((msg) => /ECONNREFUSED|Connection is closed/.test(msg));
      const perConnection = new Map<string, number>();
      for (const msg of reports) {
        const connection = msg.slice(0, msg.indexOf(': '));
        perConnection.set(connection, (perConnection.get(connection) ?? 0) + 1);
      }
      expect({ name, connection: perConnection.has('Redis connection') }).toEqual({ name, connection: true });
      expect({ name, repeated: [...perConnection].filter(([, n]) => n > 2) }).toEqual({ name, repeated: [] });
    }
  }, 90_000);
});
