import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ApiClient } from '../http';
import type { SpawnedApp, TestStack } from '../stack';

/** An app run as a process of its own, with a client for its HTTP API. */
export interface Replica extends SpawnedApp {
  api: ApiClient;
  app: AppName;
  /** The app and which of its replicas, e.g. `card-api B`, for messages. */
  name: string;
}

/** Two processes of every app on one stack, as a deployment with two replicas behind load balancers. */
export interface ReplicaSet {
  credentials: [Replica, Replica];
  card: [Replica, Replica];
  notification: [Replica, Replica];
  notifier: [Replica, Replica];
}

export type AppName = 'credentials-api' | 'card-api' | 'notification-api' | 'notifier';

/**
 * Spawns two processes of each app from the build (`npm run build` first), with the settings
 * given on top of the stack's. One after the other: started all at once on a busy machine, each
 * would compete with seven others for the CPU and could miss its time to get ready.
 */
export async function spawnReplicaSet(
  stack: TestStack,
  settings: Record<string, string> = {},
): Promise<ReplicaSet> {
  const pair = async (name: AppName): Promise<[Replica, Replica]> => [
    await spawnReplica(stack, name, 'A', settings),
    await spawnReplica(stack, name, 'B', settings),
  ];
  return {
    credentials: await pair('credentials-api'),
    card: await pair('card-api'),
    notification: await pair('notification-api'),
    notifier: await pair('notifier'),
  };
}

async function spawnReplica(
  stack: TestStack,
  app: AppName,
  id: string,
  settings: Record<string, string>,
): Promise<Replica> {
  const spawned = await stack.spawnApp(app, settings);
  return { ...spawned, api: new ApiClient(spawned.url), app, name: `${app} ${id}` };
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
