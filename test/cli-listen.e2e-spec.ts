import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NotificationApiApp } from '../apps/notification-api/src/app.definition';
import { AppWorld, startAppWorld } from './support/app-world';
import { eventually, expectStatus } from './support/http';
import { commitPersonUpdated } from './support/outbox';
import { verifyWebhook, WebhookReceiver } from './support/webhook-receiver';

const main = join(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js');

/** A running `listen`, with what it printed so far. */
interface Listening {
  child: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

describe('cli listen', () => {
  let world: AppWorld;
  let receiver: WebhookReceiver;
  const state = mkdtempSync(join(tmpdir(), 'fincore-listen-'));
  beforeAll(async () => {
    world = await startAppWorld(NotificationApiApp);
    const body = { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' };
    expectStatus(
      await world.sut.api.put('/api/v1/notification-config/enable', body, { token: world.token }),
      200,
      'enable',
    );
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver?.stop();
    await world?.stack.close();
    rmSync(state, { recursive: true, force: true });
  });

  const start = (args = ['--forward-to', `${receiver.url}/hook`], stateDir = state): Listening => {
    let out = '';
    const child = spawn(process.execPath, [main, 'listen', ...args, '--url', world.sut.url], {
      env: { PATH: process.env.PATH ?? '', FINCORE_TOKEN: world.token, FINCORE_STATE_DIR: stateDir },
    });
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, out: () => out, exited };
  };
  const secretOf = (l: Listening) => eventually(() => /whsec_\S+/.exec(l.out())?.[0], { what: 'the secret' });
  const commit = (n: number) =>
    Promise.all(Array.from({ length: n }, () => commitPersonUpdated(world.db, world.acme.tenant.code))).then(
      (es) => es.map((e) => e.id),
    );

  it('forwards every event once, verified, through a receiver outage and a Ctrl-C restart', async () => {
    await receiver.stop();
    const first = start();
    const secret = await secretOf(first);
    const before = await commit(3);
    await eventually(() => /failed: .*ECONNREFUSED/.test(first.out()), { what: 'a refused forward' });
    await receiver.listen();
    await receiver.waitFor(3);
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);

    const during = await commit(3);
    const second = start();
    expect(await secretOf(second)).toBe(secret);
    await receiver.waitFor(6);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);

    const accepted = receiver.received.filter((w) => w.answeredWith === 200);
    const ids = accepted.map((w) => verifyWebhook(w, secret).id);
    expect([...ids].sort()).toEqual([...before, ...during].sort());
    expect(second.out()).toMatch(/PERSON_UPDATED {2}\S+ {2}200 \(\d+ ms\)/);
  }, 60_000);

  it('prints the events from an instant given with --since when there is no receiver to forward to', async () => {
    await commit(1);
    const [{ now }] = await world.db.query('SELECT clock_timestamp() AS now');
    const [later] = await commit(1);
    const printing = start(['--since', now.toISOString()], join(state, 'printing'));
    const line = await eventually(() => /^\{.*\}$/m.exec(printing.out())?.[0], { what: 'an envelope' });
    printing.child.kill('SIGINT');
    expect(await printing.exited).toBe(0);
    expect(JSON.parse(line)).toMatchObject({ id: later, type: 'PERSON_UPDATED' });
    expect(printing.out()).toContain(`PERSON_UPDATED  ${later}\n`);
    expect(printing.out().match(/^\{/gm)).toHaveLength(1);
  });
});
