import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { DomainEventJob, QueueName, queuePrefix, redisConnectionOptions } from '@fincore/events';
import { createPerson } from '../../support/builders/persons';
import {
  createWebhookEndpoint,
  WebhookEndpointInput,
  webhookTenant,
  WebhookTenant,
} from '../../support/builders/webhooks';
import { ApiClient, expectStatus } from '../../support/http';
import { OwnedPostgres, OwnedRedis } from '../../support/owned';
import { SpawnedApp, TestStack } from '../../support/stack';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { ChangeStream } from './change-stream';
import { DeliveryLedger, LedgerEndpoint } from './ledger';
import { ARTIFACTS, recordFigures } from './summary';

/**
 * Retries that outlast every outage the scenarios make (about 30 s in all), and reconcilers that
 * look at a published but unprocessed event after 2 s instead of 30 s.
 */
export const FAULT_SETTINGS: Record<string, string> = {
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
  WEBHOOK_RETRY_SCHEDULE: '0.5,1,1,2,2,3,3,4,5,5,5',
  WEBHOOK_TIMEOUT_MS: '3000',
  OUTBOX_POLL_MS: '500',
  RECONCILE_INTERVAL_MS: '1000',
  OUTBOX_RECONCILE_GRACE_SECONDS: '2',
};

const LOGS = join(ARTIFACTS, 'faults-logs');

/** Longer than BullMQ's 30 s job lock, after which a dead worker's job runs again. */
const QUIET_TIMEOUT_MS = 90_000;
const UNFINISHED = ['active', 'wait', 'delayed', 'prioritized', 'waiting-children'] as const;

/** Concurrent change loops of a scenario and the pause in each; about 40 changes a second. */
const LOOPS = 4;
const INTERVAL_MS = 100;

/** How an endpoint of the world's tenant is registered, its URL aside. */
export type EndpointSettings = Omit<WebhookEndpointInput, 'url'>;

/**
 * One fault scenario's world: its own PostgreSQL and Redis, the credentials API, the notification
 * API and notifiers as real processes (SIGKILL is real), a receiver, and a tenant whose endpoint
 * (or endpoints) at the receiver gets PERSON_UPDATED webhooks. Each process's log (warnings and errors, or
 * TEST_LOG_LEVEL) is kept in test/artifacts/faults-logs/<spec file>/<app>.log.
 */
export class FaultWorld {
  readonly notifiers: SpawnedApp[] = [];
  /** Every process the world started, killed ones too, for their logs. */
  private readonly apps: Array<{ name: string; app: SpawnedApp }> = [];
  persons: string[] = [];
  /** The tenant's endpoints at the receiver, the one it was made with first, as the ledger checks them. */
  readonly endpoints: LedgerEndpoint[] = [];

  private constructor(
    readonly postgres: OwnedPostgres,
    readonly redis: OwnedRedis,
    readonly stack: TestStack,
    readonly receiver: WebhookReceiver,
    readonly credentials: ApiClient,
    readonly notifications: ApiClient,
    readonly tenant: WebhookTenant,
  ) {}

  static async start(
    options: {
      settings?: Record<string, string>;
      notifiers?: number;
      /** How the tenant's endpoint is registered (ordering, rate limit, signature schemes); defaults otherwise. */
      endpoint?: EndpointSettings;
    } = {},
  ): Promise<FaultWorld> {
    const postgres = await OwnedPostgres.start();
    const redis = await OwnedRedis.start().catch(async (error) => {
      await postgres.close();
      throw error;
    });
    let stack: TestStack | undefined;
    let receiver: WebhookReceiver | undefined;
    try {
      stack = await TestStack.onOwnedServices(postgres, redis, { ...FAULT_SETTINGS, ...options.settings });
      receiver = await WebhookReceiver.start();
      // One at a time: booting several apps at once on a busy machine outlasts their readiness wait.
      const credentials = await stack.spawnApp('credentials-api');
      const notifications = await stack.spawnApp('notification-api');
      const notificationsApi = new ApiClient(notifications.url);
      const tenant = await webhookTenant(stack, notificationsApi, receiver.url, {
        endpoint: options.endpoint,
      });
      const world = new FaultWorld(
        postgres,
        redis,
        stack,
        receiver,
        new ApiClient(credentials.url),
        notificationsApi,
        tenant,
      );
      world.endpoints.push(
        await world.subscriber(`/${tenant.tenant.code}`, tenant.endpoint, options.endpoint),
      );
      world.apps.push(
        { name: 'credentials-api', app: credentials },
        { name: 'notification-api', app: notifications },
      );
      for (let i = 0; i < (options.notifiers ?? 1); i++) await world.startNotifier();
      for (let i = 0; i < LOOPS; i++)
        world.persons.push((await createPerson(world.credentials, tenant.token, {}, 'fault')).personId);
      return world;
    } catch (error) {
      await closeAll(postgres, redis, stack, receiver);
      throw error;
    }
  }

  /** Registers another endpoint of the tenant at `<receiver>/<tenant code>/<name>`; answers its path. */
  async addEndpoint(name: string, settings: EndpointSettings = {}): Promise<string> {
    const path = `/${this.tenant.tenant.code}/${name}`;
    const endpoint = await createWebhookEndpoint(this.notifications, this.tenant.token, {
      url: this.receiver.url + path,
      ...settings,
    });
    this.endpoints.push(await this.subscriber(path, endpoint, settings));
    return path;
  }

  /**
   * What a subscriber at `path` checks with: the secret for v1, and for v1a the public key as
   * GET …/public-key publishes it.
   */
  private async subscriber(
    path: string,
    endpoint: { id: string; secret: string },
    settings: EndpointSettings = {},
  ): Promise<LedgerEndpoint> {
    const schemes = settings.signatureSchemes ?? ['v1'];
    const published = schemes.includes('v1a')
      ? expectStatus(
          await this.notifications.get(`/api/v1/webhook-endpoints/${endpoint.id}/public-key`, {
            token: await this.tenant.tokenWith(['notifications:read']),
          }),
          200,
          'fetch the public key',
        ).body
      : undefined;
    return {
      path,
      ...(schemes.includes('v1') && { secret: endpoint.secret }),
      ...(published && { publicKey: published.publicKey }),
    };
  }

  async startNotifier(): Promise<SpawnedApp> {
    const notifier = await this.stack.spawnApp('notifier');
    this.notifiers.push(notifier);
    this.apps.push({ name: `notifier-${this.apps.length - 2}`, app: notifier }); // the two APIs come first
    return notifier;
  }

  /** SIGKILLs the notifier (the first by default): in-flight jobs are left to BullMQ and the reconcilers. */
  async killNotifier(notifier = this.notifiers[0]): Promise<void> {
    await notifier.stop('SIGKILL');
    this.notifiers.splice(this.notifiers.indexOf(notifier), 1);
  }

  /**
   * Twice, after 3 s more of the running stream: SIGKILL the notifier, start a new one a second
   * later; then 3 s more of traffic. The pauses shape the traffic around each crash.
   */
  async crashNotifierTwice(): Promise<void> {
    for (const _ of [1, 2]) {
      await sleep(3000);
      await this.killNotifier();
      await sleep(1000);
      await this.startNotifier();
    }
    await sleep(3000);
  }

  /** A stream of acknowledged changes on the world's persons, started. */
  changes(): ChangeStream {
    return new ChangeStream(this.credentials, this.tenant.token, this.persons, INTERVAL_MS).start();
  }

  /** A BullMQ client on the world's domain-events queue; the caller closes it. */
  domainEvents(): Queue<DomainEventJob> {
    return this.queue(QueueName.DomainEvents);
  }

  /**
   * Waits (up to `timeoutMs`) until every acknowledged change's webhook arrived, then until both
   * queues have nothing left to run (stalled jobs of a killed notifier are taken up again only
   * after their lock expires, and may deliver once more), so the duplicates are all counted.
   * Records the scenario's figures, with `notes` read once the queues are idle, and answers them with
   * the keys still missing.
   */
  async settle(scenario: string, stream: ChangeStream, timeoutMs = 120_000, notes?: () => string) {
    const ledger = new DeliveryLedger(this.receiver, this.endpoints);
    await ledger.waitForAll(stream.acknowledged, timeoutMs);
    const settled = Math.round((Date.now() - (stream.stoppedAt ?? Date.now())) / 100) / 10;
    const unfinished = await this.untilQueuesIdle(QUIET_TIMEOUT_MS);
    const result = ledger.figures(scenario, stream.acknowledged, stream.statuses, settled);
    result.figures.unfinishedJobs = unfinished;
    if (notes) result.figures.notes = notes();
    recordFigures(result.figures);
    return result;
  }

  /** The jobs, by queue and state, still unfinished at the deadline; empty when both queues ran everything. */
  private async untilQueuesIdle(timeoutMs: number): Promise<Record<string, number>> {
    const queues = [this.queue(QueueName.DomainEvents), this.queue(QueueName.WebhookDeliveries)];
    const deadline = Date.now() + timeoutMs;
    try {
      for (;;) {
        const counts = await Promise.all(queues.map((q) => q.getJobCounts(...UNFINISHED)));
        const left = Object.fromEntries(
          counts.flatMap((byState, i) =>
            Object.entries(byState)
              .filter(([, n]) => n > 0)
              .map(([state, n]) => [`${queues[i].name} ${state}`, n]),
          ),
        );
        if (!Object.keys(left).length || Date.now() > deadline) return left;
        await sleep(250);
      }
    } finally {
      await Promise.all(queues.map((q) => q.close()));
    }
  }

  private queue<T>(name: QueueName): Queue<T> {
    return new Queue<T>(name, {
      connection: redisConnectionOptions(this.stack.config.REDIS_URL),
      prefix: queuePrefix(this.stack.config.QUEUE_PREFIX),
    });
  }

  /** Puts the services back (thawed, running) and removes everything; safe after any failure. */
  async close(): Promise<void> {
    const dir = join(LOGS, (expect.getState().testPath ?? 'scenario').split('/').pop()!);
    mkdirSync(dir, { recursive: true });
    for (const { name, app } of this.apps) writeFileSync(join(dir, `${name}.log`), app.output());
    await closeAll(this.postgres, this.redis, this.stack, this.receiver);
  }
}

async function closeAll(
  postgres: OwnedPostgres,
  redis: OwnedRedis,
  stack?: TestStack,
  receiver?: WebhookReceiver,
): Promise<void> {
  postgres.thaw();
  redis.thaw();
  await receiver?.stop().catch(() => undefined);
  await stack?.close().catch(() => undefined);
  await redis.close().catch(() => undefined);
  await postgres.close().catch(() => undefined);
}
