import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ApiClient } from '../http';
import type { SpawnedApp, TestStack } from '../stack';

/** An app run as a process of its own, with a client for its HTTP API. */
export interface Replica extends SpawnedApp {
  api: ApiClient;
  name: string;
}

/** Two processes of every app on one stack, as a deployment with two replicas behind load balancers. */
export interface ReplicaSet {
  credentials: [Replica, Replica];
  card: [Replica, Replica];
  notification: [Replica, Replica];
  notifier: [Replica, Replica];
}

type AppName = 'credentials-api' | 'card-api' | 'notification-api' | 'notifier';

/**
 * Spawns two processes of each app from the build (`npm run build` first), all at once, with the
 * settings given on top of the stack's.
 */
export async function spawnReplicaSet(
  stack: TestStack,
  settings: Record<string, string> = {},
): Promise<ReplicaSet> {
  const pair = async (name: AppName): Promise<[Replica, Replica]> => {
    const [a, b] = await Promise.all(['A', 'B'].map((id) => spawnReplica(stack, name, id, settings)));
    return [a, b];
  };
  const [credentials, card, notification, notifier] = await Promise.all([
    pair('credentials-api'),
    pair('card-api'),
    pair('notification-api'),
    pair('notifier'),
  ]);
  return { credentials, card, notification, notifier };
}

async function spawnReplica(
  stack: TestStack,
  app: AppName,
  id: string,
  settings: Record<string, string>,
): Promise<Replica> {
  const spawned = await stack.spawnApp(app, settings);
  return { ...spawned, api: new ApiClient(spawned.url), name: `${app} ${id}` };
}

/** Revokes a token with the operator CLI from the build, as an operator would; its exit code and output. */
export function revokeTokenWithCli(
  stack: TestStack,
  tokenId: string,
): { code: number | null; output: string } {
  const main = join(__dirname, '..', '..', '..', 'dist', 'apps', 'cli', 'src', 'main.js');
  const r = spawnSync(process.execPath, [main, 'token:revoke', tokenId], {
    env: { PATH: process.env.PATH ?? '', ...stack.env },
    encoding: 'utf8',
  });
  return { code: r.status, output: r.stdout + r.stderr };
}

/** Successful webhook attempts one notifier process made, from its own Prometheus counter. */
export async function succeededAttempts(notifierUrl: string): Promise<number> {
  const metrics = await (await fetch(`${notifierUrl}/metrics`)).text();
  const match = /^webhook_delivery_attempts_total\{outcome="succeeded"\} (\d+)$/m.exec(metrics);
  return match ? Number(match[1]) : 0;
}
