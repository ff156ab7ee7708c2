import { api } from '../support/load';
import { percentile } from '../support/report';
import { latencyRow, log, reason, Scenario } from './scenario';

const WAKES = 40;
const WAIT_SECONDS = 10;
const NO_BASELINE = 'the baseline has no pull API';

/**
 * How soon a long-poll of GET /api/v1/events answers once a change commits: a read waits (the
 * notification API's gauge says so), a person change goes through the credentials API, and the
 * time from its answer to the read's answer is taken, WAKES times. Target: within 100 ms.
 */
export const eventsStream: Scenario = {
  name: 'events-stream',
  async run({ systems, world }) {
    const row = latencyRow('events-stream', NO_BASELINE);
    // A tenant of its own: the events the other stages left would answer the reads at once.
    const tenant = await world.createTenant();
    const h = { 'x-auth-token': tenant.token };
    const apps = [];
    try {
      log('events-stream: starting credentials-api and notification-api');
      apps.push(
        await systems.startFincore('credentials-api'),
        await systems.startFincore('notification-api'),
      );
      const [credentials, notifications] = apps;
      const enable = { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' };
      await api(notifications.url, 'PUT', '/api/v1/notification-config/enable', enable, h);
      const personId = `stream-${Date.now()}`;
      const person = { personId, username: personId, password: 'long enough password 1' };
      await api(credentials.url, 'POST', '/api/v1/persons', person, h);
      let after = (await api(notifications.url, 'GET', '/api/v1/events?limit=100', undefined, h)).body
        .nextCursor;

      const wakes: number[] = [];
      for (let i = 0; i < WAKES; i++) {
        const query = `waitSeconds=${WAIT_SECONDS}&types=PERSON_UPDATED${after ? `&after=${after}` : ''}`;
        const read = api(notifications.url, 'GET', `/api/v1/events?${query}`, undefined, h).then((r) => ({
          at: performance.now(),
          body: r.body,
        }));
        await waiting(notifications.url);
        await api(
          credentials.url,
          'PATCH',
          `/api/v1/persons/${personId}`,
          { phone: `+49301234${1000 + i}` },
          h,
        );
        const committed = performance.now();
        const { at, body } = await read;
        if (!body.items.length) throw new Error(`read ${i + 1} answered empty after ${WAIT_SECONDS} s`);
        wakes.push(at - committed);
        after = body.nextCursor;
      }
      const sorted = wakes.sort((a, b) => a - b);
      return [
        row('change answered -> waiting read answered p50', percentile(sorted, 50), undefined, [
          `fincore: ${WAKES} long-polls woken by a change through the credentials API; target p95 <= 100 ms`,
        ]),
        row('change answered -> waiting read answered p95', percentile(sorted, 95)),
      ];
    } catch (error) {
      log(`events-stream: not measured: ${reason(error)}`);
      return [row('change answered -> waiting read answered p50', undefined, undefined, [reason(error)])];
    } finally {
      for (const p of apps) await systems.stop(p);
    }
  },
};

/** Until the notification API holds one waiting read (its gauge), polling every few milliseconds. */
async function waiting(url: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    const metrics = await (await fetch(`${url}/metrics`)).text();
    if (/^event_stream_waiting_reads 1$/m.test(metrics)) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('the read did not start waiting within 5 s');
}
