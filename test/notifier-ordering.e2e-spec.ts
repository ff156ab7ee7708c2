import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { OutboxEventEntity } from '@fincore/events';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { createWebhookEndpoint, enableNotifications } from './support/builders/webhooks';
import { eventually } from './support/http';
import { checkSubjectOrder } from './support/ordered-webhooks';
import { commitEvent } from './support/outbox';
import { RunningApp, TestStack } from './support/stack';
import { ReceiverResponse, verifyWebhook, WebhookReceiver } from './support/webhook-receiver';

/** Scenarios tried (each kills a notifier, whose jobs wait for BullMQ's 30 s lock): `ORDERING_RUNS`. */
const RUNS = Number(process.env.ORDERING_RUNS ?? 2);
/** Most events per scenario: `ORDERING_EVENTS`. */
const MAX_EVENTS = Number(process.env.ORDERING_EVENTS ?? 18);
const SEED = process.env.ORDERING_SEED ? Number(process.env.ORDERING_SEED) : undefined;

/** Answers longer than the notifier waits (WEBHOOK_TIMEOUT_MS below): the receiver got it, the sender timed out. */
const TIMEOUT_MS = 600;
const answer = fc.oneof(
  { weight: 6, arbitrary: fc.constant<ReceiverResponse>({ status: 200, body: 'ok' }) },
  { weight: 2, arbitrary: fc.constant<ReceiverResponse>({ status: 500 }) },
  { weight: 1, arbitrary: fc.constant<ReceiverResponse>({ status: 429, headers: { 'retry-after': '1' } }) },
  { weight: 1, arbitrary: fc.constant<ReceiverResponse>({ status: 200, delayMs: TIMEOUT_MS + 400 }) },
);

/** Which subject each event is about, in commit order, and how the receiver answers, request by request. */
const scenario = fc.record({
  persons: fc.integer({ min: 2, max: 3 }),
  cards: fc.integer({ min: 1, max: 2 }),
  events: fc.array(fc.nat(), { minLength: 6, maxLength: MAX_EVENTS }),
  answers: fc.array(answer, { minLength: 10, maxLength: 3 * MAX_EVENTS }),
});

interface Committed {
  id: string;
  type: 'PERSON_UPDATED' | 'CARD_SETTINGS_CHANGED';
  subject: string;
}

const settings = { authorisationTypes: [], renewable: true, xpaysAllowed: false };

/** Commits one event about the subject, as the API would after locking the subject's row. */
async function commitAbout(
  db: DataSource,
  tenantCode: string,
  subject: string,
  n: number,
): Promise<Committed> {
  const [kind, id] = subject.split(':');
  if (kind === 'person') {
    const event = await commitEvent(db, {
      type: 'PERSON_UPDATED',
      tenantCode,
      data: { personId: id, changedFields: ['firstName'], person: { personId: id, firstName: `n${n}` } },
    });
    return { id: event.id, type: event.type, subject };
  }
  const event = await commitEvent(db, {
    type: 'CARD_SETTINGS_CHANGED',
    tenantCode,
    data: {
      cardId: id,
      changedFields: ['renewable'],
      cause: 'SETTINGS_CHANGE',
      previous: settings,
      current: { ...settings, renewable: n % 2 === 0 },
    },
  });
  return { id: event.id, type: event.type, subject };
}

/**
 * Ordered delivery per subject under random receiver failures (500, timeouts, 429 with Retry-After)
 * with two notifier processes from the build (`npm run build` first), one SIGKILLed mid-run: each
 * ordered endpoint's receiver sees, per subject, every event in commit order with sequences 1, 2, 3…,
 * repeats only as re-deliveries of the same webhook-id. One endpoint takes every type, the other only
 * PERSON_UPDATED, so its sequence counts only what it receives.
 */
describe('ordered webhook delivery per subject', () => {
  let stack: TestStack;
  let db: DataSource;
  let api: RunningApp;

  beforeAll(async () => {
    stack = await TestStack.create({
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      // enough retries that no delivery fails for good: a gap would be a failure of the receiver, not of order
      WEBHOOK_RETRY_SCHEDULE: '0.2,0.3,0.5,0.5,1,1,1,1,1,1,1,1,1,1,1,1',
    });
    db = await stack.db([OutboxEventEntity]);
    api = await stack.startApp(NotificationApiApp);
  });
  afterAll(async () => {
    await stack.close();
  });

  it(
    'each receiver gets every event of a subject in commit order, gap-free, across a notifier crash',
    async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ persons, cards, events, answers }) => {
          const receiver = await WebhookReceiver.start();
          const notifiers = [await stack.spawnApp('notifier'), await stack.spawnApp('notifier')];
          try {
            const f = await stack.createTenant();
            await enableNotifications(api.api, f.token, 'PERSON_UPDATED');
            await enableNotifications(api.api, f.token, 'CARD_SETTINGS_CHANGED');
            const everything = await createWebhookEndpoint(api.api, f.token, {
              url: `${receiver.url}/all`,
              ordering: 'SUBJECT',
            });
            const personsOnly = await createWebhookEndpoint(api.api, f.token, {
              url: `${receiver.url}/persons`,
              ordering: 'SUBJECT',
              notificationTypeCodes: ['PERSON_UPDATED'],
            });
            receiver.respondWith(...answers);

            const subjects = [
              ...Array.from({ length: persons }, (_, i) => `person:${f.tenant.code}-p${i}`),
              ...Array.from({ length: cards }, (_, i) => `card:${f.tenant.code}-c${i}`),
            ];
            const committed: Committed[] = [];
            for (const [n, pick] of events.entries())
              committed.push(await commitAbout(db, f.tenant.code, subjects[pick % subjects.length], n));

            const expected = {
              '/all': committed,
              '/persons': committed.filter((e) => e.type === 'PERSON_UPDATED'),
            };
            const distinct = (path: string) =>
              new Set(
                receiver.received
                  .filter((w) => w.path === path && w.answeredWith < 300)
                  .map((w) => String(w.headers['webhook-id'])),
              ).size;
            await eventually(() => distinct('/all') >= committed.length / 3, {
              what: 'a third of the webhooks',
            });
            await notifiers[0].stop('SIGKILL');
            for (const [path, wanted] of Object.entries(expected)) {
              await eventually(() => distinct(path) === wanted.length, {
                timeoutMs: 120_000,
                what: `${wanted.length} webhooks at ${path}`,
              });
            }

            for (const [path, wanted] of Object.entries(expected)) {
              const secret = path === '/all' ? everything.secret : personsOnly.secret;
              const webhooks = receiver.received.filter((w) => w.path === path);
              for (const w of webhooks) verifyWebhook(w, secret);
              const { violations, bySubject } = checkSubjectOrder(webhooks);
              expect(violations).toEqual([]);
              for (const subject of new Set(wanted.map((e) => e.subject))) {
                const inCommitOrder = wanted.filter((e) => e.subject === subject).map((e) => e.id);
                expect(bySubject.get(subject)?.ids).toEqual(inCommitOrder);
                expect(bySubject.get(subject)?.sequences).toEqual(inCommitOrder.map((_, i) => i + 1));
              }
            }
          } finally {
            await Promise.all(notifiers.map((n) => n.stop('SIGKILL')));
            await receiver.stop();
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    },
    120_000 + RUNS * 240_000,
  );
});
