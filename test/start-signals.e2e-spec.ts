import { statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { LAUNCHED_APPS, launch, stateDir } from './support/launcher';
import { eventually } from './support/http';
import { TestStack } from './support/stack';

const drainsOn = (log: string, signal: string) =>
  log.split('\n').filter((line) => line.includes(`${signal} received: draining`)).length;

/**
 * Stopping `npm start` as users do: Ctrl-C in a terminal (SIGINT to the whole process group) and
 * SIGTERM to the launcher. Every app drains once and exits 0; the demo token and the Bull Board
 * password survive a restart.
 */
describe('npm start stops cleanly and keeps its demo token and Bull Board password', () => {
  let stack: TestStack;
  const state = stateDir();
  beforeAll(async () => {
    stack = await TestStack.create();
  });
  afterAll(async () => {
    await stack.close();
    state.remove();
  });
  // No Bull Board password given: the launcher makes one up and keeps it.
  const env = () => {
    const { BULL_BOARD_PASSWORD: _given, ...rest } = stack.env;
    return { ...rest, LOG_LEVEL: 'info' };
  };
  const bullBoardPasswordIn = (output: string) => output.match(/\(user admin, password (\S+)\)/)?.[1] ?? '';
  let firstToken = '';
  let firstPassword = '';

  it('prints its banner without app logs, then drains every app once on Ctrl-C and exits 0', async () => {
    const run = await launch(env(), { state: state.path, viaNpm: true });
    try {
      await run.ready();
    } finally {
      process.kill(-run.process.pid!, 'SIGINT');
    }
    expect(await run.exited).toBe(0);

    const banner = run.output().slice(0, run.output().indexOf('fincore is running'));
    expect(banner).not.toContain('"level"');
    expect(banner.split('\n').length).toBeLessThan(10);
    for (const app of LAUNCHED_APPS) {
      expect(drainsOn(run.log(app), 'SIGINT')).toBe(1);
      expect(run.log(app)).not.toContain('while draining');
    }
    firstToken = run.output().match(/export TOKEN=(fct_[A-Za-z0-9_-]{43})/)?.[1] ?? '';
    expect(firstToken).not.toBe('');
    expect(statSync(join(state.path, 'demo-token')).mode & 0o777).toBe(0o600);
    firstPassword = bullBoardPasswordIn(run.output());
    expect(firstPassword).not.toBe('');
    expect(statSync(join(state.path, 'bull-board-password')).mode & 0o777).toBe(0o600);
  }, 90_000);

  it('starts again with the same demo token and Bull Board password, which still work, and exits 0 on SIGTERM', async () => {
    const run = await launch(env(), { state: state.path });
    try {
      await run.ready();
      expect(run.output()).toContain(`export TOKEN=${firstToken}`);
      const person = await fetch(
        `http://127.0.0.1:${run.ports.CREDENTIALS_API_PORT}/api/v1/persons/demo-person-1`,
        { headers: { 'x-auth-token': firstToken } },
      );
      expect(person.status).toBe(200);
      expect(bullBoardPasswordIn(run.output())).toBe(firstPassword);
      const board = await fetch(`http://127.0.0.1:${run.ports.NOTIFIER_PORT}/admin/queues`, {
        headers: { authorization: `Basic ${Buffer.from(`admin:${firstPassword}`).toString('base64')}` },
      });
      expect(board.status).toBe(200);
    } finally {
      run.process.kill('SIGTERM');
    }
    expect(await run.exited).toBe(0);
    for (const app of LAUNCHED_APPS) expect(drainsOn(run.log(app), 'SIGTERM')).toBe(1);
  }, 90_000);

  it('an app finishes its drain through a repeated signal instead of dying mid-drain', async () => {
    const app = await stack.spawnApp('credentials-api', { LOG_LEVEL: 'info' });
    const exited = new Promise<number | null>((resolve) => app.process.once('exit', (code) => resolve(code)));
    // A request whose body has not all arrived keeps the drain open; 100 Continue says the app has it.
    const socket = connect(Number(new URL(app.url).port), '127.0.0.1');
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const body = JSON.stringify({ personId: 'p', password: 'x' });
    socket.write(
      'POST /api/v1/credentials/authenticate HTTP/1.1\r\nHost: fincore\r\nConnection: close\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await eventually(() => answer.includes('100 Continue'), { what: 'the app to accept the request' });

    app.process.kill('SIGINT');
    await eventually(() => app.output().includes('SIGINT received: draining'), {
      what: 'the drain to begin',
    });
    app.process.kill('SIGINT');
    await eventually(() => app.output().includes('SIGINT received while draining'), {
      what: 'the second signal to be noticed',
    });
    expect(app.process.exitCode).toBeNull();

    socket.end(body);
    await closed;
    expect(answer).toMatch(/HTTP\/1\.1 [2-5]\d\d /);
    expect(await exited).toBe(0);
  }, 60_000);
});
