import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { DomainEventJob, QueueName, queuePrefix, redisConnectionOptions } from '@fincore/events';
import { createPerson } from '../../support/builders/persons';
import { provisionCard, setUpCardTenant } from '../../support/card-settings';
import {
  createWebhookEndpoint,
  enableNotifications,
  WebhookEndpointInput,
  webhookTenant,
  WebhookTenant,
} from '../../support/builders/webhooks';
import { ApiClient, eventually, expectStatus } from '../../support/http';
import { OwnedPostgres, OwnedRedis } from '../../support/owned';
import { SpawnedApp, TestStack } from '../../support/stack';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { cardSettingsChanges, ChangeStream, personRenames } from './change-stream';
import { committedEvents, DeliveryLedger, Duplicate, LedgerEndpoint } from './ledger';
import { PartitionNetwork, Place } from './network';
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

/**
 * A fault the scenario made, from its first to its last instant (one for a kill), and how many
 * notifiers it struck: each may have had deliveries in flight that it sends again.
 */
export interface Fault {
  label: string;
  from: number;
  to: number;
  notifiers: number;
  /** For a kill: jobs active in the queues just before it (the killed notifier's stall). */
  activeJobs?: number;
}

/** Log lines of a job Redis lost under a worker, or one a reconciler gave back. */
export const LOST_JOBS = /Missing (key|lock) for job|Re-created \d+ webhook|Re-enqueued \d+ unprocessed/;

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
  /** The network namespace each app of a partitioned world runs in. */
  private readonly places = new Map<SpawnedApp, Place>();
  /** The subjects the stream changes: persons, or cards when the world drives card settings. */
  subjects: string[] = [];
  readonly faults: Fault[] = [];
  private readonly startedAt = Date.now();
  /** The tenant's endpoints at the receiver, the one it was made with first, as the ledger checks them. */
  readonly endpoints: LedgerEndpoint[] = [];

  private constructor(
    readonly postgres: OwnedPostgres,
    readonly redis: OwnedRedis,
    readonly stack: TestStack,
    readonly receiver: WebhookReceiver,
    public credentials: ApiClient,
    readonly notifications: ApiClient,
    readonly tenant: WebhookTenant,
    private readonly cardApi?: ApiClient,
    /** Set when the world was started `partitioned`. */
    readonly network?: PartitionNetwork,
  ) {}

  static async start(
    options: {
      settings?: Record<string, string>;
      notifiers?: number;
      /** How the tenant's endpoint is registered (ordering, rate limit, signature schemes); defaults otherwise. */
      endpoint?: EndpointSettings;
      /** Card settings changes through card-api instead of person renames. */
      cards?: boolean;
      /**
       * The credentials API and each notifier in a network namespace of its own, reaching
       * PostgreSQL, Redis and the receiver over links `network` can cut (see PartitionNetwork).
       */
      partitioned?: boolean;
    } = {},
  ): Promise<FaultWorld> {
    const network = options.partitioned ? await PartitionNetwork.create() : undefined;
    const postgres = await OwnedPostgres.start({}, network?.postgresService).catch(async (error) => {
      await network?.close();
      throw error;
    });
    const redis = await OwnedRedis.start(network?.redisHost).catch(async (error) => {
      await closeAll(postgres, undefined, undefined, undefined, network);
      throw error;
    });
    let stack: TestStack | undefined;
    let receiver: WebhookReceiver | undefined;
    try {
      stack = await TestStack.onOwnedServices(postgres, redis, { ...FAULT_SETTINGS, ...options.settings });
      receiver = await WebhookReceiver.start(network?.receiverHost);
      // One at a time: booting several apps at once on a busy machine outlasts their readiness wait.
      const credentialsPlace = await network?.place('credentials-api');
      const credentials = await stack.spawnApp('credentials-api', {}, credentialsPlace);
      const notifications = await stack.spawnApp('notification-api');
      const cards = options.cards ? await stack.spawnApp('card-api') : undefined;
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
        cards && new ApiClient(cards.url),
        network,
      );
      if (credentialsPlace) world.places.set(credentials, credentialsPlace);
      world.endpoints.push(
        await world.subscriber(`/${tenant.tenant.code}`, tenant.endpoint, options.endpoint),
      );
      world.apps.push(
        { name: 'credentials-api', app: credentials },
        { name: 'notification-api', app: notifications },
        ...(cards ? [{ name: 'card-api', app: cards }] : []),
      );
      for (let i = 0; i < (options.notifiers ?? 1); i++) await world.startNotifier();
      await world.makeSubjects();
      return world;
    } catch (error) {
      await closeAll(postgres, redis, stack, receiver, network);
      throw error;
    }
  }

  private async makeSubjects(): Promise<void> {
    const { token } = this.tenant;
    if (this.cardApi) {
      await enableNotifications(this.notifications, token, 'CARD_SETTINGS_CHANGED');
      await setUpCardTenant(this.cardApi, token);
      for (let i = 0; i < LOOPS; i++) this.subjects.push(await provisionCard(this.cardApi, token));
    } else {
      for (let i = 0; i < LOOPS; i++)
        this.subjects.push((await createPerson(this.credentials, token, {}, 'fault')).personId);
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
    const name = `notifier-${this.apps.filter((a) => a.name.startsWith('notifier')).length + 1}`;
    const place = await this.network?.place(name);
    const notifier = await this.stack.spawnApp('notifier', {}, place);
    if (place) this.places.set(notifier, place);
    this.notifiers.push(notifier);
    this.apps.push({ name, app: notifier });
    return notifier;
  }

  /** The network namespace `app` runs in; only in a `partitioned` world. */
  placeOf(app: SpawnedApp): Place {
    const place = this.places.get(app);
    if (!place) throw new Error('the app runs in no namespace of its own: start the world partitioned');
    return place;
  }

  /** The process of the credentials API the world started. */
  get credentialsApi(): SpawnedApp {
    return this.apps.find((a) => a.name === 'credentials-api')!.app;
  }

  /** SIGKILLs the notifier (the first by default): in-flight jobs are left to BullMQ and the reconcilers. */
  async killNotifier(notifier = this.notifiers[0]): Promise<void> {
    const queues = [this.queue(QueueName.DomainEvents), this.queue(QueueName.WebhookDeliveries)];
    const active = await Promise.all(queues.map((q) => q.getActiveCount())).finally(() =>
      Promise.all(queues.map((q) => q.close())),
    );
    await this.fault('notifier SIGKILLed', 1, () => notifier.stop('SIGKILL'));
    this.faults[this.faults.length - 1].activeJobs = active[0] + active[1];
    this.notifiers.splice(this.notifiers.indexOf(notifier), 1);
  }

  /**
   * Runs `make` as a fault striking `notifiers` notifiers (all of them by default: PostgreSQL or
   * Redis going away cuts every notifier's work short), and records when it struck.
   */
  async fault<T>(label: string, notifiers: number | 'all', make: () => Promise<T>): Promise<T> {
    const fault: Fault = { label, from: Date.now(), to: 0, notifiers: 0 };
    fault.notifiers = notifiers === 'all' ? this.notifiers.length : notifiers;
    try {
      return await make();
    } finally {
      fault.to = Date.now();
      this.faults.push(fault);
    }
  }

  /**
   * SIGKILLs the credentials API as soon as two of the stream's requests are in flight (changes it
   * committed may never be answered), then starts another in its place; the stream goes on against the new one.
   */
  async crashCredentialsApi(stream: ChangeStream): Promise<void> {
    const entry = this.apps.find((a) => a.name === 'credentials-api');
    await eventually(() => stream.inFlight >= 2, { intervalMs: 1, what: 'two changes in flight' });
    await this.fault('credentials-api SIGKILLed', 0, () => entry!.app.stop('SIGKILL'));
    entry!.name = `credentials-api-killed-${this.faults.length}`;
    const credentials = await this.stack.spawnApp('credentials-api');
    this.apps.push({ name: 'credentials-api', app: credentials });
    this.credentials = new ApiClient(credentials.url);
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

  /** A stream of acknowledged changes on the world's subjects, started. */
  changes(): ChangeStream {
    const cardApi = this.cardApi;
    return cardApi
      ? new ChangeStream(() => cardApi, this.tenant, this.subjects, INTERVAL_MS, cardSettingsChanges).start()
      : new ChangeStream(
          () => this.credentials,
          this.tenant,
          this.subjects,
          INTERVAL_MS,
          personRenames,
        ).start();
  }

  /**
   * How many webhooks the faults may send twice: every delivery a struck notifier can have in
   * flight, WEBHOOK_CONCURRENCY jobs plus the first attempts of as many events (one per endpoint).
   */
  duplicateBound(): number {
    const inFlight = this.stack.config.WEBHOOK_CONCURRENCY * (1 + this.endpoints.length);
    return this.faults.reduce((sum, f) => sum + f.notifiers * inFlight, 0);
  }

  /**
   * Duplicates first sent outside every fault. A delivery is in flight from its send until its
   * attempt is recorded: the send ends within WEBHOOK_TIMEOUT_MS, the record within the pool's
   * acquire timeout and one statement timeout. Anything first accepted longer before a fault, or
   * after it ended, was sent twice for no fault's sake.
   */
  duplicatesOutsideFaults(duplicates: Duplicate[]): string[] {
    const { WEBHOOK_TIMEOUT_MS, DATABASE_ACQUIRE_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS } =
      this.stack.config;
    const before = WEBHOOK_TIMEOUT_MS + DATABASE_ACQUIRE_TIMEOUT_MS + DATABASE_STATEMENT_TIMEOUT_MS;
    return duplicates
      .filter((d) => !this.faults.some((f) => d.firstAt >= f.from - before && d.firstAt <= f.to))
      .map((d) => `${d.path} ${d.id} first at ${new Date(d.firstAt).toISOString()}`);
  }

  /**
   * Per kill, the work it cut short: webhooks accepted in the `windowMs` before it (the receiver
   * still holding its answer) and jobs active just before it.
   */
  inFlightAtKills(windowMs: number): Array<{ deliveries: number; jobs: number }> {
    const accepted = this.receiver.received
      .filter((w) => w.answeredWith < 300)
      .map((w) => w.receivedAt.getTime());
    return this.faults
      .filter((f) => f.label === 'notifier SIGKILLed')
      .map((f) => ({
        deliveries: accepted.filter((at) => at > f.from - windowMs && at <= f.from).length,
        jobs: f.activeJobs ?? 0,
      }));
  }

  /** Evidence that each kill met work: deliveries or jobs under way, by kill. */
  killsMetWork(windowMs: number): Record<string, number> {
    return Object.fromEntries(
      this.inFlightAtKills(windowMs).map((k, i) => [
        `work under way at kill ${i + 1}`,
        k.deliveries + k.jobs,
      ]),
    );
  }

  /** Lines of every process's log (killed ones too) that match `pattern`. */
  logLines(pattern: RegExp): number {
    return this.apps.flatMap(({ app }) => app.output().split('\n')).filter((l) => pattern.test(l)).length;
  }

  /** A BullMQ client on the world's domain-events queue; the caller closes it. */
  domainEvents(): Queue<DomainEventJob> {
    return this.queue(QueueName.DomainEvents);
  }

  /**
   * Waits (up to `timeoutMs`) until every event the outbox committed for the stream's subjects
   * (acknowledged or not) has its webhook at every endpoint, then until both
   * queues have nothing left to run (stalled jobs of a killed notifier are taken up again only
   * after their lock expires, and may deliver once more), so the duplicates are all counted.
   * Records the scenario's figures, with `notes` read once the queues are idle, and answers them with
   * the keys still missing.
   */
  async settle(scenario: string, stream: ChangeStream, timeoutMs = 120_000, notes?: () => string) {
    const ledger = new DeliveryLedger(this.receiver, this.endpoints, stream.kind);
    const commits = () => committedEvents(this.stack.env.DATABASE_URL, stream.kind, stream.subjects);
    await ledger.waitForAll(commits, stream.acknowledged, timeoutMs);
    const settled = Math.round((Date.now() - (stream.stoppedAt ?? Date.now())) / 100) / 10;
    const unfinished = await this.untilQueuesIdle(QUIET_TIMEOUT_MS);
    const result = ledger.figures(scenario, await commits(), stream.acknowledged, stream.statuses, settled);
    result.figures.unfinishedJobs = unfinished;
    result.figures.duplicateBound = this.duplicateBound();
    result.figures.durationSeconds = Math.round((Date.now() - this.startedAt) / 1000);
    result.figures.faults = this.faults.map(
      (f) => `${f.label} at ${new Date(f.from).toISOString().slice(11, 23)} for ${f.to - f.from} ms`,
    );
    if (notes) result.figures.notes = notes();
    const duplicatesOutsideFaults = this.duplicatesOutsideFaults(result.duplicates);
    result.figures.duplicatesOutsideFaults = duplicatesOutsideFaults.length;
    recordFigures(result.figures);
    return { ...result, duplicatesOutsideFaults };
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
    await closeAll(this.postgres, this.redis, this.stack, this.receiver, this.network);
  }
}

async function closeAll(
  postgres: OwnedPostgres,
  redis?: OwnedRedis,
  stack?: TestStack,
  receiver?: WebhookReceiver,
  network?: PartitionNetwork,
): Promise<void> {
  postgres.thaw();
  redis?.thaw();
  await receiver?.stop().catch(() => undefined);
  await stack?.close().catch(() => undefined);
  await redis?.close().catch(() => undefined);
  await postgres.close().catch(() => undefined);
  await network?.close().catch(() => undefined);
}
